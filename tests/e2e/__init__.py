"""End-to-end tests through the real Claude Code CLI."""
