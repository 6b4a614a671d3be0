"""The project's documents; guide.md and systems.md are also installed as ``fiftysix.docs`` (package data).

The app's Rules page reads the rules guide through ``fiftysix.shipped``; nothing else here is code.
"""
