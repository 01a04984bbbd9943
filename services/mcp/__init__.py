"""The MCP server: ``provmem mcp`` (stdio) or ``provmem mcp --http`` (streamable HTTP
behind the API's keys). See docs/mcp.md."""
