"""Glossary page: every word of 56 and of this trainer, said for a beginner, and the families of calls."""
from __future__ import annotations

import streamlit as st

from fiftysix.glossary import FAMILIES, find
from fiftysix.ui.components import in_url, page_start
from fiftysix.ui.render import md_text

page_start("Glossary", "The words of 56 and of this trainer, said plainly. Each page has a Words button "
           "beside its own.")
query = st.text_input("Find a word", placeholder="e.g. Noes, stake, double-dummy", **in_url("gl_q"))
found = find(query or "")
if not found:
    st.info("No word matches; clear the box to see them all.")
for t in found:
    st.markdown(f"#### {md_text(t.name)}", help=("Also: " + ", ".join(t.also)) if t.also else None)
    st.markdown(md_text(t.line))
    if t.more:
        st.caption(md_text(t.more))

st.subheader("The families of calls")
st.caption("Calls written the same way form a family; the Explain page's palette has a tab for each. What a "
           "call promises depends on the bidding system: the Explain and Rules pages give each system's own "
           "meaning.")
st.dataframe([{"family": f.title, "example": f.example, "what it does": f.line} for f in FAMILIES.values()],
             hide_index=True, column_config={"what it does": st.column_config.TextColumn(width="large")})
