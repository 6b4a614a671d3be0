"""The Streamlit entry in the repository (``streamlit run app.py``, the page tests): the app is ``fiftysix.ui.app``."""
from __future__ import annotations

from fiftysix.ui.app import main

main()
