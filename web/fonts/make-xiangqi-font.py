#!/usr/bin/python3
"""Regenerates xiangqi.woff: the fourteen characters of the xiangqi pieces
(帥 仕 相 傌 俥 炮 兵 / 將 士 象 馬 車 砲 卒) cut from Noto Serif CJK TC Bold
(Debian's fonts-noto-cjk, SIL Open Font License 1.1, see OFL.txt), renamed
"dgtbridge xiangqi" (a modified version under the OFL keeps no reserved
name). Needs Debian's fonts-noto-cjk and fonttools (python3-fonttools):

    apt-get install fonts-noto-cjk fonttools
    web/fonts/make-xiangqi-font.py

The output depends only on the source font: run it again and commit the
result (then rebuild web/dist) when the piece set changes.
"""
import os
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

PIECES = "帥仕相傌俥炮兵將士象馬車砲卒"
SOURCE = os.environ.get("NOTO_SERIF_CJK", "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
FACE = "Noto Serif CJK TC"
NAME = "dgtbridge xiangqi"

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "xiangqi.woff")

# The collection's faces: pick the Traditional Chinese one by its name.
number = None
for i in range(8):
    try:
        f = TTFont(SOURCE, fontNumber=i, lazy=True)
    except Exception:
        break
    if f["name"].getDebugName(1) == FACE:
        number = i
        break
if number is None:
    sys.exit(f"{SOURCE}: no face named {FACE!r} (install fonts-noto-cjk)")

font = TTFont(SOURCE, fontNumber=number, recalcTimestamp=False)
opts = subset.Options()
opts.layout_features = []
opts.hinting = False
opts.desubroutinize = True
opts.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
opts.notdef_outline = True
s = subset.Subsetter(opts)
s.populate(text=PIECES)
s.subset(font)
missing = [c for c in PIECES if ord(c) not in font.getBestCmap()]
if missing:
    sys.exit(f"{SOURCE}: no glyph for {''.join(missing)}")

names = font["name"]
for rec in list(names.names):
    if rec.nameID in (1, 4, 16):
        names.setName(NAME, rec.nameID, rec.platformID, rec.platEncID, rec.langID)
    elif rec.nameID == 6:
        names.setName(NAME.replace(" ", "-"), rec.nameID, rec.platformID, rec.platEncID, rec.langID)
    elif rec.nameID == 3:
        names.setName(NAME + " subset of " + FACE, rec.nameID, rec.platformID, rec.platEncID, rec.langID)
if "CFF " in font:
    cff = font["CFF "].cff
    cff.fontNames = [NAME.replace(" ", "-")]
    top = cff.topDictIndex[0]
    for k in ("FullName", "FamilyName"):
        if hasattr(top, k):
            setattr(top, k, NAME)
font.flavor = "woff"
font.save(out, reorderTables=True)
print(f"{out}: {os.path.getsize(out)} bytes, {len(PIECES)} characters from {FACE} (face {number} of {SOURCE})")
