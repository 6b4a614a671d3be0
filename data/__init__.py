"""Shipped data, installed as ``fiftysix.data``: read it through ``fiftysix.shipped``, never by path.

banks/ (starter quiz banks), stats/ (each system's call statistics), records/ (sample hands).
"""
