"""The typed IR: expression and statement trees, the lowered game, types, walking trees, the reference evaluator."""
