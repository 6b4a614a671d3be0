"""The project's documents; rules.md and systems.md are also installed as ``fiftysix.docs`` (package data).

The app's Rules page reads the rules guide through ``fiftysix.shipped``; nothing else here is code.
"""
