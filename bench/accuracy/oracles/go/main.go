// Command cgraphoracle is the Go call-graph oracle of bench/accuracy (see ../../FORMAT.md).
//
// It type-checks every Go file of a source tree with go/types (standard library only, no
// network, no module proxy) and writes the definitions and the compiler-resolved call edges as
// one JSON document:
//
//	go run . --root DIR --out FILE [--include relDir ...] [--exclude relDir ...] [--verbose]
//
// Packages of the analysed tree are type-checked from their directories (import path = module
// path from go.mod + relative directory; nested go.mod files start their own module). The
// standard library comes from the "source" importer of go/importer. Any other import (a
// third-party dependency that is not in the tree) becomes a fake, empty, complete package: uses
// of it fail to type-check (errors are counted and swallowed) and calls through it are listed as
// "unresolved".
//
// Build constraints: a file is analysed in the first build configuration it matches (linux/amd64
// first, then linux/amd64 with each custom tag seen in the tree, then other GOOS/GOARCH pairs,
// each alone and with each custom tag). Files that match none (e.g. `//go:build ignore` helper
// programs) are type-checked alone under linux/amd64. Release tags go1.1 .. go1.40 are all
// satisfied so that files constrained to newer Go versions are analysed too.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// ---- output ---------------------------------------------------------------------------------

type Def struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Name string `json:"name"`
	Kind string `json:"kind"`
}

type Call struct {
	Caller string `json:"caller"`
	Callee string `json:"callee"`
	Site   int    `json:"site"`
}

type Inst struct {
	Caller string `json:"caller"`
	Class  string `json:"class"`
	Site   int    `json:"site"`
}

type Unresolved struct {
	Caller string `json:"caller"`
	Name   string `json:"name"`
	Site   int    `json:"site"`
}

type Output struct {
	Oracle       string       `json:"oracle"`
	Language     string       `json:"language"`
	Root         string       `json:"root"`
	Files        []string     `json:"files"`
	Defs         []Def        `json:"defs"`
	Calls        []Call       `json:"calls"`
	Instantiates []Inst       `json:"instantiates"`
	Unresolved   []Unresolved `json:"unresolved"`
}

// ---- CLI ------------------------------------------------------------------------------------

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	var root, out string
	var includes, excludes multiFlag
	var verbose bool
	flag.StringVar(&root, "root", "", "source tree to analyse")
	flag.StringVar(&out, "out", "", "output JSON file")
	flag.Var(&includes, "include", "relative directory to analyse (repeatable; default: all)")
	flag.Var(&excludes, "exclude", "relative directory to leave out (repeatable)")
	flag.BoolVar(&verbose, "verbose", false, "print swallowed type errors and missing imports")
	flag.Parse()
	if root == "" || out == "" {
		fmt.Fprintln(os.Stderr, "usage: go run . --root DIR --out FILE [--include relDir ...] [--exclude relDir ...]")
		os.Exit(2)
	}
	// go/build must never shell out to `go list` (module mode): everything is resolved here.
	os.Setenv("GO111MODULE", "off")

	start := time.Now()
	abs, err := filepath.Abs(root)
	if err != nil {
		fatal(err)
	}
	a := newAnalyzer(abs, clean(includes), clean(excludes), verbose)
	if err := a.scan(); err != nil {
		fatal(err)
	}
	a.run()
	o := a.output()
	data, err := json.MarshalIndent(o, "", " ")
	if err != nil {
		fatal(err)
	}
	if err := os.WriteFile(out, append(data, '\n'), 0o644); err != nil {
		fatal(err)
	}
	fmt.Fprintf(os.Stderr,
		"cgraphoracle: %s: files=%d defs=%d calls=%d unresolved=%d type-errors-swallowed=%d missing-imports=%d configs=%s singletons=%d time=%s\n",
		abs, len(o.Files), len(o.Defs), len(o.Calls), len(o.Unresolved), len(a.typeErrors),
		len(a.missing), strings.Join(a.usedConfigs, ","), a.singletons, time.Since(start).Round(time.Millisecond))
	if a.danglingCallees > 0 {
		fmt.Fprintf(os.Stderr, "cgraphoracle: WARNING: %d call edges point at a location that is not a def\n", a.danglingCallees)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "cgraphoracle:", err)
	os.Exit(1)
}

func clean(dirs []string) []string {
	var r []string
	for _, d := range dirs {
		d = path.Clean(filepath.ToSlash(d))
		d = strings.TrimPrefix(d, "./")
		r = append(r, d)
	}
	return r
}

// ---- source tree ----------------------------------------------------------------------------

type srcFile struct {
	rel     string // root-relative, "/"-separated
	abs     string
	name    string // base name
	dir     string // root-relative dir ("" at the root)
	isTest  bool
	ast     *ast.File
	pkgName string
	tags    []string // custom build tags mentioned in its constraints
	output  bool     // inside --include / outside --exclude
	config  int      // index of the config that analyses it; -1: none yet
}

type module struct {
	dir  string // root-relative ("" for the root)
	path string // module path
}

type analyzer struct {
	root               string
	includes, excludes []string
	verbose            bool

	fset    *token.FileSet
	dirs    map[string][]*srcFile // rel dir -> .go files
	dirList []string
	modules []module // longest dir first
	files   map[string]*srcFile

	configs     []config
	usedConfigs []string
	singletons  int

	defs       map[string]Def // "path:line:name" -> def
	calls      map[Call]bool
	unresolved map[Unresolved]bool
	typeErrors map[string]bool
	missing    map[string]bool

	danglingCallees int
}

func newAnalyzer(root string, inc, exc []string, verbose bool) *analyzer {
	return &analyzer{
		root: root, includes: inc, excludes: exc, verbose: verbose,
		fset:       token.NewFileSet(),
		dirs:       map[string][]*srcFile{},
		files:      map[string]*srcFile{},
		defs:       map[string]Def{},
		calls:      map[Call]bool{},
		unresolved: map[Unresolved]bool{},
		typeErrors: map[string]bool{},
		missing:    map[string]bool{},
	}
}

func under(rel, dir string) bool {
	return dir == "." || dir == "" || rel == dir || strings.HasPrefix(rel, dir+"/")
}

func (a *analyzer) wanted(rel string) bool {
	if len(a.includes) > 0 {
		ok := false
		for _, d := range a.includes {
			if under(rel, d) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	for _, d := range a.excludes {
		if under(rel, d) {
			return false
		}
	}
	return true
}

// scan walks the tree (skipping vendor/, testdata/, and dot/underscore directories like the go
// tool), records modules and parses every .go file.
func (a *analyzer) scan() error {
	err := filepath.Walk(a.root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(a.root, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		base := info.Name()
		if info.IsDir() {
			if rel != "" && (base == "vendor" || base == "testdata" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if base == "go.mod" {
			if mp := readModulePath(p); mp != "" {
				a.modules = append(a.modules, module{dir: path.Dir(rel), path: mp})
			}
			return nil
		}
		if !strings.HasSuffix(base, ".go") || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") {
			return nil
		}
		dir := path.Dir(rel)
		if dir == "." {
			dir = ""
		}
		f := &srcFile{rel: rel, abs: p, name: base, dir: dir, isTest: strings.HasSuffix(base, "_test.go"), config: -1}
		f.output = a.wanted(rel)
		a.files[rel] = f
		if _, ok := a.dirs[dir]; !ok {
			a.dirList = append(a.dirList, dir)
		}
		a.dirs[dir] = append(a.dirs[dir], f)
		return nil
	})
	if err != nil {
		return err
	}
	for i := range a.modules {
		if a.modules[i].dir == "." {
			a.modules[i].dir = ""
		}
	}
	sort.Slice(a.modules, func(i, j int) bool { return len(a.modules[i].dir) > len(a.modules[j].dir) })
	sort.Strings(a.dirList)
	// Parse everything once (the ASTs are shared by all build configurations).
	for _, dir := range a.dirList {
		for _, f := range a.dirs[dir] {
			af, _ := parser.ParseFile(a.fset, f.abs, nil, parser.ParseComments|parser.SkipObjectResolution)
			if af == nil {
				continue
			}
			f.ast = af
			f.pkgName = af.Name.Name
			f.tags = buildTags(af)
		}
	}
	return nil
}

func readModulePath(p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		fs := strings.Fields(line)
		if len(fs) >= 2 && fs[0] == "module" {
			return strings.Trim(fs[1], "\"`")
		}
	}
	return ""
}

// importPathOf maps a root-relative directory to its import path.
func (a *analyzer) importPathOf(dir string) string {
	for _, m := range a.modules {
		if m.dir == "" || dir == m.dir || strings.HasPrefix(dir, m.dir+"/") {
			rest := strings.TrimPrefix(strings.TrimPrefix(dir, m.dir), "/")
			if rest == "" {
				return m.path
			}
			return m.path + "/" + rest
		}
	}
	if dir == "" {
		return "_root_"
	}
	return dir
}

// dirOfImport maps an import path to a directory of the tree, if there is one.
func (a *analyzer) dirOfImport(ip string) (string, bool) {
	for _, m := range a.modules {
		if ip == m.path || strings.HasPrefix(ip, m.path+"/") {
			rest := strings.TrimPrefix(strings.TrimPrefix(ip, m.path), "/")
			d := path.Join(m.dir, rest)
			if d == "." {
				d = ""
			}
			if _, ok := a.dirs[d]; ok && a.importPathOf(d) == ip {
				return d, true
			}
		}
	}
	if len(a.modules) == 0 {
		if _, ok := a.dirs[ip]; ok {
			return ip, true
		}
	}
	return "", false
}

// buildTags lists the custom tags (not GOOS/GOARCH/release/compiler tags) of a file's
// //go:build or // +build lines.
func buildTags(f *ast.File) []string {
	var tags []string
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		for _, c := range cg.List {
			if !constraint.IsGoBuild(c.Text) && !constraint.IsPlusBuild(c.Text) {
				continue
			}
			x, err := constraint.Parse(c.Text)
			if err != nil {
				continue
			}
			x.Eval(func(tag string) bool {
				if !knownTag(tag) {
					tags = append(tags, tag)
				}
				return false
			})
		}
	}
	return tags
}

var knownOS = strings.Fields("aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos unix")
var knownArch = strings.Fields("386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm")

func knownTag(t string) bool {
	if strings.HasPrefix(t, "go1.") || t == "gc" || t == "gccgo" || t == "ignore" || strings.HasPrefix(t, "goexperiment.") {
		return true
	}
	for _, k := range knownOS {
		if t == k {
			return true
		}
	}
	for _, k := range knownArch {
		if t == k {
			return true
		}
	}
	return false
}

// ---- build configurations -------------------------------------------------------------------

type config struct {
	goos, goarch string
	tags         []string
}

func (c config) String() string {
	s := c.goos + "/" + c.goarch
	if len(c.tags) > 0 {
		s += "+" + strings.Join(c.tags, "+")
	}
	return s
}

func (c config) context() *build.Context {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH = c.goos, c.goarch
	ctx.BuildTags = c.tags
	ctx.CgoEnabled = false
	for _, t := range c.tags {
		if t == "cgo" {
			ctx.CgoEnabled = true
		}
	}
	ctx.ReleaseTags = nil
	for i := 1; i <= 40; i++ {
		ctx.ReleaseTags = append(ctx.ReleaseTags, fmt.Sprintf("go1.%d", i))
	}
	return &ctx
}

var platforms = [][2]string{
	{"linux", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}, {"freebsd", "amd64"},
	{"openbsd", "amd64"}, {"netbsd", "amd64"}, {"dragonfly", "amd64"}, {"solaris", "amd64"},
	{"illumos", "amd64"}, {"aix", "ppc64"}, {"plan9", "amd64"}, {"js", "wasm"},
	{"android", "arm64"}, {"ios", "arm64"}, {"linux", "386"}, {"linux", "arm64"}, {"linux", "arm"},
	{"linux", "riscv64"}, {"linux", "s390x"}, {"linux", "ppc64le"}, {"linux", "mips64le"},
	{"linux", "loong64"}, {"windows", "386"}, {"windows", "arm64"}, {"darwin", "amd64"},
}

// assign gives every file the first configuration it matches.
func (a *analyzer) assign() {
	tagSet := map[string]bool{}
	for _, f := range a.files {
		for _, t := range f.tags {
			tagSet[t] = true
		}
	}
	var tags []string
	for t := range tagSet {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	for _, p := range platforms {
		a.configs = append(a.configs, config{goos: p[0], goarch: p[1]})
		for _, t := range tags {
			a.configs = append(a.configs, config{goos: p[0], goarch: p[1], tags: []string{t}})
		}
	}
	for ci, c := range a.configs {
		ctx := c.context()
		for _, dir := range a.dirList {
			for _, f := range a.dirs[dir] {
				if f.config >= 0 || f.ast == nil {
					continue
				}
				if ok, _ := ctx.MatchFile(filepath.Join(a.root, filepath.FromSlash(dir)), f.name); ok {
					f.config = ci
				}
			}
		}
	}
}

// ---- type-checking passes -------------------------------------------------------------------

type pass struct {
	a        *analyzer
	cfg      config
	ctx      *build.Context
	std      types.ImporterFrom
	sizes    types.Sizes
	pkgs     map[string]*types.Package // import path -> non-test package (nil while in progress)
	override *types.Package            // the test variant, seen by an external test package
}

func (a *analyzer) newPass(c config, std types.ImporterFrom) *pass {
	return &pass{a: a, cfg: c, ctx: c.context(), std: std, sizes: types.SizesFor("gc", c.goarch), pkgs: map[string]*types.Package{}}
}

func (p *pass) Import(path string) (*types.Package, error) { return p.ImportFrom(path, "", 0) }

func (p *pass) ImportFrom(ip, srcDir string, mode types.ImportMode) (*types.Package, error) {
	if ip == "unsafe" {
		return types.Unsafe, nil
	}
	if p.override != nil && p.override.Path() == ip {
		return p.override, nil
	}
	if pkg, ok := p.pkgs[ip]; ok {
		if pkg == nil { // import cycle
			return p.fake(ip), nil
		}
		return pkg, nil
	}
	if dir, ok := p.a.dirOfImport(ip); ok {
		p.pkgs[ip] = nil
		files := p.packageFiles(dir)
		if len(files) == 0 {
			pkg := p.fake(ip)
			p.pkgs[ip] = pkg
			return pkg, nil
		}
		conf := p.typesConfig(func(error) {})
		pkg, _ := conf.Check(ip, p.a.fset, asts(files), nil)
		p.pkgs[ip] = pkg
		return pkg, nil
	}
	if isStd(ip) {
		pkg, err := p.std.ImportFrom(ip, srcDir, 0)
		if err == nil && pkg != nil {
			p.pkgs[ip] = pkg
			return pkg, nil
		}
	}
	pkg := p.fake(ip)
	p.pkgs[ip] = pkg
	return pkg, nil
}

func isStd(ip string) bool {
	first := strings.SplitN(ip, "/", 2)[0]
	return !strings.Contains(first, ".")
}

// fake is an empty, complete package standing in for an import that is not available.
func (p *pass) fake(ip string) *types.Package {
	p.a.missing[ip] = true
	pkg := types.NewPackage(ip, guessName(ip))
	pkg.MarkComplete()
	return pkg
}

// guessName: `github.com/a/go-b/v2` -> `b`, `gopkg.in/yaml.v3` -> `yaml`.
func guessName(ip string) string {
	segs := strings.Split(ip, "/")
	last := segs[len(segs)-1]
	if len(segs) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = segs[len(segs)-2]
	}
	if i := strings.Index(last, ".v"); i > 0 {
		last = last[:i]
	}
	last = strings.TrimPrefix(last, "go-")
	last = strings.TrimSuffix(strings.TrimSuffix(last, "-go"), ".go")
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, last)
}

func (p *pass) typesConfig(onErr func(error)) *types.Config {
	return &types.Config{
		Importer:    p,
		Error:       onErr,
		FakeImportC: true,
		Sizes:       p.sizes,
	}
}

func asts(fs []*srcFile) []*ast.File {
	var r []*ast.File
	for _, f := range fs {
		r = append(r, f.ast)
	}
	return r
}

// matching: the files of a directory that this pass's configuration builds.
func (p *pass) matching(dir string) []*srcFile {
	var r []*srcFile
	for _, f := range p.a.dirs[dir] {
		if f.ast == nil {
			continue
		}
		if ok, _ := p.ctx.MatchFile(filepath.Join(p.a.root, filepath.FromSlash(dir)), f.name); ok {
			r = append(r, f)
		}
	}
	return r
}

type group struct {
	name   string
	files  []*srcFile // non-test files
	tests  []*srcFile // in-package _test.go files
	xtests []*srcFile // package <name>_test files
}

// groups splits a directory's matching files by package clause.
func (p *pass) groups(dir string) []*group {
	byName := map[string]*group{}
	var order []*group
	get := func(n string) *group {
		g := byName[n]
		if g == nil {
			g = &group{name: n}
			byName[n] = g
			order = append(order, g)
		}
		return g
	}
	fs := p.matching(dir)
	for _, f := range fs {
		if !f.isTest {
			g := get(f.pkgName)
			g.files = append(g.files, f)
		}
	}
	for _, f := range fs {
		if !f.isTest {
			continue
		}
		if g := byName[f.pkgName]; g != nil {
			g.tests = append(g.tests, f)
		} else if g := byName[strings.TrimSuffix(f.pkgName, "_test")]; g != nil && strings.HasSuffix(f.pkgName, "_test") {
			g.xtests = append(g.xtests, f)
		} else {
			g := get(f.pkgName)
			g.tests = append(g.tests, f)
		}
	}
	// the main group (the one importers see) first: most non-test files
	sort.SliceStable(order, func(i, j int) bool { return len(order[i].files) > len(order[j].files) })
	return order
}

// packageFiles: the non-test files importers of dir see.
func (p *pass) packageFiles(dir string) []*srcFile {
	gs := p.groups(dir)
	if len(gs) == 0 {
		return nil
	}
	return gs[0].files
}

func newInfo() *types.Info {
	return &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
}

// errRecorder counts the type errors located in the files a pass extracts from (a package is
// checked under several configurations; errors in files another configuration owns are not its).
func (a *analyzer) errRecorder(ci int) func(error) {
	return func(err error) {
		if te, ok := err.(types.Error); ok {
			if rel, _, ok := a.relPos(te.Pos); !ok || a.files[rel].config != ci {
				return
			}
		}
		a.typeErrors[err.Error()] = true
	}
}

// analyse type-checks the packages of dir that hold files assigned to this pass (ci) and
// extracts defs and calls from those files.
func (p *pass) analyse(ci int, dir string) {
	a := p.a
	mine := func(fs []*srcFile) bool {
		for _, f := range fs {
			if f.config == ci && f.output {
				return true
			}
		}
		return false
	}
	ip := a.importPathOf(dir)
	for gi, g := range p.groups(dir) {
		pkgPath := ip
		if gi > 0 {
			pkgPath = ip + "#" + g.name
		}
		var testPkg *types.Package
		if mine(g.files) || mine(g.tests) || mine(g.xtests) {
			all := append(append([]*srcFile{}, g.files...), g.tests...)
			if len(all) > 0 {
				info := newInfo()
				testPkg, _ = p.typesConfig(a.errRecorder(ci)).Check(pkgPath, a.fset, asts(all), info)
				for _, f := range all {
					if f.config == ci && f.output {
						a.extract(f, info)
					}
				}
			}
		}
		if mine(g.xtests) {
			info := newInfo()
			p.override = testPkg
			p.typesConfig(a.errRecorder(ci)).Check(pkgPath+"_test", a.fset, asts(g.xtests), info)
			p.override = nil
			for _, f := range g.xtests {
				if f.config == ci && f.output {
					a.extract(f, info)
				}
			}
		}
	}
}

// singleton type-checks a file that no configuration builds on its own.
func (p *pass) singleton(f *srcFile) {
	info := newInfo()
	p.typesConfig(p.a.errRecorder(f.config)).Check(p.a.importPathOf(f.dir)+"#"+f.name, p.a.fset, []*ast.File{f.ast}, info)
	p.a.extract(f, info)
}

func (a *analyzer) run() {
	a.assign()
	var std types.ImporterFrom
	var stdKey string
	var first *pass
	for ci, c := range a.configs {
		var dirs []string
		for _, dir := range a.dirList {
			for _, f := range a.dirs[dir] {
				if f.config == ci && f.output {
					dirs = append(dirs, dir)
					break
				}
			}
		}
		if len(dirs) == 0 && ci != 0 {
			continue
		}
		// The "source" importer reads the build context from build.Default: set it for this
		// platform (no cgo: pure-Go variants of the standard library).
		if key := c.goos + "/" + c.goarch; key != stdKey || std == nil {
			build.Default.GOOS, build.Default.GOARCH = c.goos, c.goarch
			build.Default.CgoEnabled = false
			std = importer.ForCompiler(a.fset, "source", nil).(types.ImporterFrom)
			stdKey = key
		}
		p := a.newPass(c, std)
		a.usedConfigs = append(a.usedConfigs, c.String())
		for _, dir := range dirs {
			p.analyse(ci, dir)
		}
		if ci == 0 {
			first = p
			// files no configuration builds (`//go:build ignore` programs, ...): each alone
			for _, dir := range a.dirList {
				for _, f := range a.dirs[dir] {
					if f.config < 0 && f.ast != nil {
						f.config = len(a.configs) // mark as analysed
						if f.output {
							a.singletons++
							first.singleton(f)
						}
					}
				}
			}
		}
	}
	build.Default.GOOS, build.Default.GOARCH = runtime.GOOS, runtime.GOARCH
	if a.verbose {
		var errs, miss []string
		for e := range a.typeErrors {
			errs = append(errs, e)
		}
		for m := range a.missing {
			miss = append(miss, m)
		}
		sort.Strings(errs)
		sort.Strings(miss)
		for _, e := range errs {
			fmt.Fprintln(os.Stderr, "type error:", e)
		}
		for _, m := range miss {
			fmt.Fprintln(os.Stderr, "missing import:", m)
		}
	}
}

// ---- extraction -----------------------------------------------------------------------------

func (a *analyzer) relPos(pos token.Pos) (string, int, bool) {
	if !pos.IsValid() {
		return "", 0, false
	}
	ps := a.fset.Position(pos)
	rel, err := filepath.Rel(a.root, ps.Filename)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", 0, false
	}
	rel = filepath.ToSlash(rel)
	f := a.files[rel]
	if f == nil || !f.output || f.ast == nil {
		return "", 0, false
	}
	return rel, ps.Line, true
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// boundName: the name a func literal assigned to this expression is bound to (x, obj.x).
func boundName(e ast.Expr) *ast.Ident {
	switch x := unparen(e).(type) {
	case *ast.Ident:
		if x.Name != "_" {
			return x
		}
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// calleeIdent: the identifier naming what a call expression calls (f, x.f, f[T], x.f[T]).
func calleeIdent(e ast.Expr) *ast.Ident {
	switch x := unparen(e).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	case *ast.IndexExpr:
		return calleeIdent(x.X)
	case *ast.IndexListExpr:
		return calleeIdent(x.X)
	}
	return nil
}

func (a *analyzer) extract(f *srcFile, info *types.Info) {
	top := f.rel + ":0"
	addDef := func(id *ast.Ident, kind string) string {
		line := a.fset.Position(id.Pos()).Line
		d := Def{Path: f.rel, Line: line, Name: id.Name, Kind: kind}
		a.defs[fmt.Sprintf("%s:%d:%s", f.rel, line, id.Name)] = d
		return fmt.Sprintf("%s:%d", f.rel, line)
	}
	var visit func(n ast.Node, caller string)
	visitFuncLit := func(fl *ast.FuncLit, caller string) {
		visit(fl.Type, caller)
		visit(fl.Body, caller)
	}
	// bindings: lhs[i] = rhs[i] with a func literal on the right defines a named function.
	bind := func(lhs []ast.Expr, rhs []ast.Expr, caller string) {
		for i, r := range rhs {
			if fl, ok := unparen(r).(*ast.FuncLit); ok && len(lhs) == len(rhs) {
				if id := boundName(lhs[i]); id != nil {
					visit(lhs[i], caller)
					visitFuncLit(fl, addDef(id, "function"))
					continue
				}
			}
			if len(lhs) == len(rhs) {
				visit(lhs[i], caller)
			}
			visit(r, caller)
		}
		if len(lhs) != len(rhs) {
			for _, l := range lhs {
				visit(l, caller)
			}
		}
	}
	visit = func(n ast.Node, caller string) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(m ast.Node) bool {
			switch x := m.(type) {
			case nil:
				return false
			case *ast.FuncDecl:
				kind := "function"
				if x.Recv != nil {
					kind = "method"
				}
				d := addDef(x.Name, kind)
				visit(x.Type, caller)
				if x.Body != nil {
					visit(x.Body, d)
				}
				return false
			case *ast.InterfaceType:
				if x.Methods != nil {
					for _, fld := range x.Methods.List {
						if _, ok := fld.Type.(*ast.FuncType); ok {
							for _, id := range fld.Names {
								addDef(id, "method")
							}
						}
					}
				}
				return true
			case *ast.AssignStmt:
				if m == n {
					return true
				}
				bind(x.Lhs, x.Rhs, caller)
				return false
			case *ast.ValueSpec:
				if m == n {
					return true
				}
				lhs := make([]ast.Expr, len(x.Names))
				for i, id := range x.Names {
					lhs[i] = id
				}
				visit(x.Type, caller)
				bind(lhs, x.Values, caller)
				return false
			case *ast.KeyValueExpr:
				if m == n {
					return true
				}
				// struct literal field: T{Run: func() {...}}
				if key, ok := x.Key.(*ast.Ident); ok {
					if fl, ok := unparen(x.Value).(*ast.FuncLit); ok && isFieldKey(info, key) {
						visitFuncLit(fl, addDef(key, "function"))
						return false
					}
				}
				return true
			case *ast.CallExpr:
				a.call(x, caller, info)
				return true
			}
			return true
		})
	}
	for _, d := range f.ast.Decls {
		visit(d, top)
	}
}

// isFieldKey: a composite-literal key that names a struct field (or is unknown: a struct of a
// missing package), not a map key constant/variable.
func isFieldKey(info *types.Info, key *ast.Ident) bool {
	switch o := info.Uses[key].(type) {
	case nil:
		return info.Defs[key] == nil
	case *types.Var:
		return o.IsField()
	}
	return false
}

func (a *analyzer) call(c *ast.CallExpr, caller string, info *types.Info) {
	fun := unparen(c.Fun)
	if tv, ok := info.Types[fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return // conversion or builtin
	}
	id := calleeIdent(fun)
	if id == nil {
		return // f()(), func(){}(), x.(func())(): a function value
	}
	site := a.fset.Position(id.Pos()).Line
	switch o := info.Uses[id].(type) {
	case *types.Func:
		callee := o.Origin()
		if rel, line, ok := a.relPos(callee.Pos()); ok {
			a.calls[Call{Caller: caller, Callee: fmt.Sprintf("%s:%d", rel, line), Site: site}] = true
		}
	case nil:
		// an index expression on something that is a value (fs[i]()) resolves its base fine;
		// only a callee the checker knows nothing about is unresolved
		if tv, ok := info.Types[fun]; ok && tv.Type != nil && tv.Type != types.Typ[types.Invalid] {
			return
		}
		a.unresolved[Unresolved{Caller: caller, Name: id.Name, Site: site}] = true
	default:
		// *types.Var (func-typed variable, parameter, field), *types.TypeName, *types.Builtin,
		// *types.Nil, *types.Const: not a call to a definition
	}
}

func (a *analyzer) output() *Output {
	o := &Output{
		Oracle:       "go/types " + runtime.Version(),
		Language:     "go",
		Root:         a.root,
		Files:        []string{},
		Defs:         []Def{},
		Calls:        []Call{},
		Instantiates: []Inst{},
		Unresolved:   []Unresolved{},
	}
	for rel, f := range a.files {
		if f.output && f.ast != nil && f.config >= 0 {
			o.Files = append(o.Files, rel)
		}
	}
	sort.Strings(o.Files)
	defAt := map[string]bool{}
	for _, d := range a.defs {
		o.Defs = append(o.Defs, d)
		defAt[fmt.Sprintf("%s:%d", d.Path, d.Line)] = true
	}
	sort.Slice(o.Defs, func(i, j int) bool {
		x, y := o.Defs[i], o.Defs[j]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		return x.Name < y.Name
	})
	for c := range a.calls {
		if !defAt[c.Callee] {
			a.danglingCallees++
		}
		o.Calls = append(o.Calls, c)
	}
	sort.Slice(o.Calls, func(i, j int) bool { return callLess(o.Calls[i], o.Calls[j]) })
	for u := range a.unresolved {
		o.Unresolved = append(o.Unresolved, u)
	}
	sort.Slice(o.Unresolved, func(i, j int) bool {
		x, y := o.Unresolved[i], o.Unresolved[j]
		if x.Caller != y.Caller {
			return locLess(x.Caller, y.Caller)
		}
		if x.Site != y.Site {
			return x.Site < y.Site
		}
		return x.Name < y.Name
	})
	return o
}

func locLess(x, y string) bool {
	i, j := strings.LastIndex(x, ":"), strings.LastIndex(y, ":")
	if x[:i] != y[:j] {
		return x[:i] < y[:j]
	}
	var lx, ly int
	fmt.Sscan(x[i+1:], &lx)
	fmt.Sscan(y[j+1:], &ly)
	return lx < ly
}

func callLess(x, y Call) bool {
	if x.Caller != y.Caller {
		return locLess(x.Caller, y.Caller)
	}
	if x.Site != y.Site {
		return x.Site < y.Site
	}
	return locLess(x.Callee, y.Callee)
}
