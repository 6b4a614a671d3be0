"""The two faces over the library: the Streamlit pages and the ``fiftysix`` command."""
