/** cgraph's version, shown by `--version`, stored with every graph and reported over MCP. */
export const VERSION = "0.1.0";
