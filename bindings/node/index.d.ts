// Types of the `hashline` package (index.js over the native hashline.node).

/** Misuse of the API; `code` is a stable `E_…` code (`docs/ERRORS.md`). */
export declare class HashlineError extends Error {
  readonly code: string;
  constructor(message: string, code: string);
}

/** One warning: its `W_…` code (`null` for an uncoded line) and its whole text. */
export interface Warning {
  code: string | null;
  text: string;
}

/** What happened to one file. */
export interface File {
  /** The path as the request named it. */
  path: string;
  /** For a rename, the new path. */
  newPath: string | null;
  op: 'read' | 'create' | 'update' | 'noop' | 'delete' | 'rename';
  /** The file's tag after the call, when it has one. */
  tag: string | null;
  /** The unified diff of the change (empty for reads and no-ops). */
  diff: string;
  /** Whether the change was written (false in a dry run or a refusal). */
  written: boolean;
  /** The first changed line of the new text, 1-based. */
  firstChangedLine: number | null;
}

/** The fresh anchors of one changed region of a written file. */
export interface Anchors {
  path: string;
  /** First line shown (1-based). */
  first: number;
  last: number;
  /** The rows of lines `first..=last` as the dialect's read shows them. */
  rows: string[];
}

/** A call's answer. A refusal of the engine is `ok: false` with its `code`: nothing was written. */
export interface Result {
  ok: boolean;
  /** The refusal's `E_…` code; `null` when `ok`. */
  code: string | null;
  /** The model-facing text: what the CLI prints, what the MCP tool result shows. */
  text: string;
  warnings: Warning[];
  files: File[];
  /** The fresh anchors of every changed region, file by file. */
  anchors: Anchors[];
  /** The call's undo id, when it wrote and was recorded. */
  undo: number | null;
  /** The preview id `astEdit` queued (what `resolve` takes). */
  preview: number | null;
  /** The CLI's `--json` object, serialized. */
  json: string;
}

/**
 * A dialect's name: `hashline`, `lineid-json`, `apply-patch`, … (`hashline dialects`).
 * Absent: the request's dialect is detected and reads show `¶PATH#TAG` and `N:TEXT` rows.
 */
export type Dialect = string;

export interface SessionOptions {
  /** The state directory (snapshots and undo log kept on disk); absent or null: in memory. */
  state?: string | null;
  /** The session's name in that state directory (default `default`). */
  session?: string;
}

export interface ReadOptions {
  /** The first line shown (1-based). */
  offset?: number;
  /** How many lines at most. */
  limit?: number;
  /** The dialect whose anchors the read shows. */
  dialect?: Dialect;
}

/** A JSON dialect's request (`lineid-json`, …) as an object. */
export type JsonRequest = Record<string, unknown> | unknown[];

export interface EditArgs {
  /** A patch as text, or a JSON dialect's request as an object. */
  request: string | JsonRequest;
  /** The request's dialect (default: detected). */
  dialect?: Dialect;
  /** Check and show the change, write nothing. */
  dryRun?: boolean;
  /** Write even when the edit leaves a syntax error the file did not have. */
  allowSyntaxErrors?: boolean;
  /** Let a create replace a file this session never read. */
  overwrite?: boolean;
}

export interface WriteOptions {
  dialect?: Dialect;
  /** Replace an existing file this session never read. */
  overwrite?: boolean;
}

export interface AstEditOptions {
  /** The language (default: from each file's extension). */
  lang?: string;
  /** The most files the rewrite may touch. */
  maxFiles?: number;
  allowSyntaxErrors?: boolean;
  /** Walk hidden files too. */
  hidden?: boolean;
  /** Walk files `.gitignore` excludes too. */
  noIgnore?: boolean;
}

export interface ResolveOptions {
  /** The preview id (default: the newest). */
  id?: number;
  /** `apply` only these `FILE:MATCH` ids. */
  only?: string[];
}

/** One MCP tool call's answer. */
export interface ToolOutput {
  /** The model-facing text (the tool result's content). */
  text: string;
  /** The call was refused: nothing was written. */
  isError: boolean;
  /** The structured result (`ok`, `code`, `files`, `undo` …): the MCP structured content. */
  structured: Record<string, unknown>;
}

/** One tool as the MCP server lists it. */
export interface ToolSpec {
  name: 'read' | 'edit' | 'write' | 'ast_edit' | 'resolve' | 'undo';
  title: string;
  /** The model-facing description, exactly as `tools/list` shows it. */
  description: string;
  /** The JSON schema of the arguments. */
  input_schema: Record<string, unknown>;
}

/** A session over the directory `root`. */
export declare class Session {
  constructor(root: string, options?: SessionOptions);
  /** Read `path` on the libuv pool; records what it showed. */
  read(path: string, options?: ReadOptions): Promise<Result>;
  readSync(path: string, options?: ReadOptions): Result;
  /** Apply a patch (a string is the request itself). */
  edit(args: EditArgs | string): Result;
  /** Create or replace `path` with `content`, then show its anchors. */
  write(path: string, content: string | Uint8Array, options?: WriteOptions): Result;
  /** Preview structural rewrites on the libuv pool and queue the preview; nothing is written. */
  astEdit(rules: Array<[pattern: string, rewrite: string]>, paths: string[], options?: AstEditOptions): Promise<Result>;
  astEditSync(rules: Array<[pattern: string, rewrite: string]>, paths: string[], options?: AstEditOptions): Result;
  /** `apply` or `discard` a queued preview, or `list` them. */
  resolve(action?: 'apply' | 'discard' | 'list', options?: ResolveOptions): Result;
  /** Put back the files of call `id` (default: this session's newest call that wrote). */
  undo(id?: number): Result;
  /** The undoable calls of this root, newest first (the result's `text`). */
  undoList(): Result;
  /** Run MCP tool `name` as the MCP server does; `args` an object or a model's JSON text. */
  callTool(name: string, args: Record<string, unknown> | string | null | undefined, dialect?: Dialect): ToolOutput;
}

/** The tools as the MCP server lists them for `dialect`. */
export declare function toolSpecs(dialect?: Dialect): ToolSpec[];

/** The engine's version. */
export declare const version: string;
