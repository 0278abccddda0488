// Engram over the Model Context Protocol: the tools, and the stdio and streamable-HTTP transports
// the CLI (`engram mcp`) and the HTTP server (`/mcp`) mount.

export { createMcpServer, type McpServerOptions } from './server.js';
export { runMcpStdio, type McpStdioOptions } from './stdio.js';
export { handleMcpRequest, type McpHttpOptions } from './http.js';
export { TOOLS, type EngramTool, type ToolName } from './tools.js';
export { ERROR_META_KEY, type McpErrorCode, type ToolFailure } from './tool-result.js';
