'use strict';
// hashline for Node: read files with anchors and apply small anchored edits exactly, or
// refuse them. An agent holds one `Session` per tree. Every call answers a `Result`: a
// refusal of the engine (a stale anchor, a suspected model mistake) is `ok: false` with its
// stable `code` and a text saying what to do next, and nothing is written. Misuse of the API
// (an unknown dialect, a root that cannot be opened) throws `HashlineError` with a `code`.
// `read` and `astEdit` run on the libuv pool and answer a Promise.

const native = require('./hashline.node');

/** Misuse of the API; `code` is a stable `E_…` code (`docs/ERRORS.md`). */
class HashlineError extends Error {
  constructor(message, code) {
    super(`[${code}] ${message}`);
    this.name = 'HashlineError';
    this.code = code;
  }
}

/** A native error (its `code` an `E_…` code, or napi's for an argument of the wrong type) as a HashlineError. */
function lift(error) {
  if (error instanceof HashlineError) return error;
  const code = typeof error.code === 'string' && error.code.startsWith('E_') ? error.code : 'E_USAGE';
  return new HashlineError(error.message, code);
}

/** Run `call`, throwing a HashlineError for misuse. */
function guard(call) {
  try {
    return call();
  } catch (error) {
    throw lift(error);
  }
}

function usage(message) {
  return new HashlineError(message, 'E_USAGE');
}

function isRecord(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The options object of a call, or misuse. */
function options(value, what) {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw usage(`the ${what} options are an object`);
  return value;
}

/**
 * A session over the directory `root`: snapshots in memory (no `state`) or in the state
 * directory `state` under the name `session` (shared with the CLI and MCP server of that state).
 */
class Session {
  #native;

  constructor(root, opts) {
    const { state = null, session = 'default' } = options(opts, 'Session') ?? {};
    if (typeof root !== 'string') throw usage('`root` is a directory path (a string)');
    this.#native = guard(() => new native.NativeSession(root, state ?? undefined, session));
  }

  /** Read `path` with the anchors of `dialect`, on the libuv pool; records what it showed. */
  async read(path, opts) {
    return guard(() => this.#native.read(path, options(opts, 'read')));
  }

  /** `read` on the calling thread. */
  readSync(path, opts) {
    return guard(() => this.#native.readSync(path, options(opts, 'read')));
  }

  /**
   * Apply `request` (a patch as a string, or a JSON dialect's request as an object) in
   * `dialect` (default: detected). A string argument is the request itself.
   */
  edit(args) {
    if (typeof args === 'string') args = { request: args };
    if (!isRecord(args)) throw usage('edit takes { request, dialect?, dryRun?, allowSyntaxErrors?, overwrite? }');
    const { request, ...rest } = args;
    let text;
    if (typeof request === 'string') text = request;
    else if (isRecord(request) || Array.isArray(request)) text = JSON.stringify(request);
    else throw usage('`request` is a patch as a string, or a JSON dialect\'s request as an object');
    return guard(() => this.#native.edit(text, rest));
  }

  /**
   * Create or replace `path` with `content` (a string, or bytes written as they are), then show
   * its anchors. An existing file this session never read is refused (`E_NOT_READ`) unless
   * `overwrite`.
   */
  write(path, content, opts) {
    let value = content;
    if (content instanceof Uint8Array && !Buffer.isBuffer(content)) {
      value = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    } else if (typeof content !== 'string' && !Buffer.isBuffer(content)) {
      throw usage('`content` is the new file as a string or bytes');
    }
    return guard(() => this.#native.write(path, value, options(opts, 'write')));
  }

  /**
   * Preview structural rewrites (`rules`: `[pattern, rewrite]` pairs) over `paths` on the
   * libuv pool and queue the preview; nothing is written. `Result.preview` is the id
   * `resolve` takes.
   */
  async astEdit(rules, paths, opts) {
    return guard(() => this.#native.astEdit(rules, paths, options(opts, 'astEdit')));
  }

  /** `astEdit` on the calling thread. */
  astEditSync(rules, paths, opts) {
    return guard(() => this.#native.astEditSync(rules, paths, options(opts, 'astEdit')));
  }

  /**
   * `apply` a queued preview (default the newest; `only`: `FILE:MATCH` ids), `discard` it, or
   * `list` the pending previews.
   */
  resolve(action = 'list', opts) {
    const { id, only } = options(opts, 'resolve') ?? {};
    return guard(() => this.#native.resolve(action, id ?? undefined, only ?? undefined));
  }

  /** Put back the files of call `id` (default: this session's newest call that wrote). */
  undo(id) {
    return guard(() => this.#native.undo(id ?? undefined));
  }

  /** The undoable calls of this root, newest first (the result's `text`). */
  undoList() {
    return guard(() => this.#native.undoList());
  }

  /**
   * Run MCP tool `name` (`read`, `edit`, `write`, `ast_edit`, `resolve`, `undo`) as the MCP
   * server does; `args` an object or the JSON text a model produced; `dialect` the default,
   * as the server's `--dialect`.
   */
  callTool(name, args, dialect) {
    const text = typeof args === 'string' ? args : JSON.stringify(args ?? null);
    const reply = guard(() => this.#native.callTool(name, text, dialect ?? undefined));
    return { text: reply.text, isError: reply.isError, structured: JSON.parse(reply.structured) };
  }
}

/** The tools as the MCP server lists them: `name`, `title`, `description`, `input_schema`. */
function toolSpecs(dialect) {
  return JSON.parse(guard(() => native.toolSpecs(dialect ?? undefined)));
}

const version = native.version();

module.exports = { Session, HashlineError, toolSpecs, version };
