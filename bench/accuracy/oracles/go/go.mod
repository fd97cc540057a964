module cgraphoracle

go 1.19
