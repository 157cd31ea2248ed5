// Placeholder until this target's first real test lands; delete it then.
