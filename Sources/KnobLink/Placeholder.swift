// Placeholder until the server's first real file lands; delete it then.
