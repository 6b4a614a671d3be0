"""The Streamlit app: the page router and the shared sidebar, nothing else."""
import streamlit as st

st.set_page_config(page_title="56 trainer", page_icon="🃏", layout="wide")
st.title("56 — trainer and hand analyser")
st.write("The app's pages arrive with the app issue; the command line `fiftysix --help` works today.")
