/** Shapes shared by the accuracy harness: oracle output (see FORMAT.md) and cgraph's export. */

export interface OracleDef {
  path: string;
  line: number;
  name: string;
  kind: string;
}

export interface OracleCall {
  caller: string;
  callee: string;
  site: number;
}

export interface Oracle {
  oracle: string;
  language: string;
  root: string;
  files: string[];
  defs: OracleDef[];
  calls: OracleCall[];
  instantiates?: { caller: string; class: string; site: number }[];
  unresolved?: { caller: string; name: string; site: number }[];
}

export interface CgSymbol {
  id: string;
  path: string;
  line: number;
  endLine: number;
  name: string;
  kind: string;
  qualified: string;
  parent?: string;
}

export interface CgEdge {
  type: string;
  /** Symbol id of the caller; absent for a file-level caller (then `fromFile` is its path). */
  from?: string;
  fromFile?: string;
  to: string;
  line: number;
  confidence: number;
  via?: string;
}

export interface CgCall {
  path: string;
  from?: string;
  line: number;
  name: string;
  receiver?: string;
  isNew?: boolean;
}

export interface CgExport {
  files: string[];
  symbols: CgSymbol[];
  edges: CgEdge[];
  calls: CgCall[];
  parseErrors: Record<string, number>;
  ms: { analyze: number; resolve: number };
}
