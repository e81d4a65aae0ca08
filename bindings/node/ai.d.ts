// Types of `hashline/ai`: the MCP server's tools as Vercel AI SDK tools.
import type { Tool } from 'ai';
import type { Dialect, Session, ToolOutput } from './index';

export type HashlineToolName = 'read' | 'edit' | 'write' | 'ast_edit' | 'resolve' | 'undo';

/**
 * The six tools for `session`, each an AI SDK `tool()` with the MCP server's description and
 * input schema; `execute` answers the server's text, refusal flag and structured result, and
 * the model reads the text (a refusal as an error).
 */
export declare function hashlineTools(
  session: Session,
  options?: { dialect?: Dialect },
): Record<HashlineToolName, Tool<Record<string, unknown>, ToolOutput>>;
