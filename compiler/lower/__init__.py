"""Lowering: the checked rules made into the typed IR, the same for both engines (one mixin per module)."""
