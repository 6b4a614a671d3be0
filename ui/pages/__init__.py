"""The Streamlit pages, one module a page; each page only calls library functions."""
