'use strict';
// The MCP server's tools as Vercel AI SDK tools: `hashlineTools(session)` answers
// `{ read, edit, write, ast_edit, resolve, undo }`, each a `tool()` with the server's own
// model-facing description and input schema (`jsonSchema()`), its `execute` running the call
// on `session` as the server would. `ai` is a peer dependency.

const { tool, jsonSchema } = require('ai');
const { toolSpecs } = require('./index.js');

/**
 * The six tools for `session`. `dialect` is the default dialect, as the server's `--dialect`:
 * it picks the read anchors and the edit language the descriptions teach.
 */
function hashlineTools(session, opts = {}) {
  const { dialect } = opts ?? {};
  const tools = {};
  for (const spec of toolSpecs(dialect)) {
    tools[spec.name] = tool({
      description: spec.description,
      inputSchema: jsonSchema(spec.input_schema),
      // What the program gets: the text, the refusal flag and the structured result.
      execute: async (input) => session.callTool(spec.name, input, dialect),
      // What the model reads: the server's text, a refusal as an error.
      toModelOutput: (arg) => {
        const output = arg && 'toolCallId' in arg && 'output' in arg ? arg.output : arg;
        return { type: output.isError ? 'error-text' : 'text', value: output.text };
      },
    });
  }
  return tools;
}

module.exports = { hashlineTools };
