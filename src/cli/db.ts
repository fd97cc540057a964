import type { Command } from "./command.ts";
export const dbCommand: Command = {
  name: "db",
  summary: "show, start or stop the FalkorDB server cgraph uses (status|start|stop)",
  run: () => Promise.resolve(0),
};
