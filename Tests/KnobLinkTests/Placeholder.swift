// Placeholder until the first server test lands; delete it then.
