"""The games that ship with regle, as rules text (data, not code): this folder is installed as
``regle.gamefiles``, and :mod:`regle.games` finds them by name."""
