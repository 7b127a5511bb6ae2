"""Writes test/fixtures/formats/inspect-triviaqa.eval: the samples of inspect-triviaqa.json laid out as Inspect's
`.eval` archive, with Python's zipfile as Inspect itself writes it (ZIP_DEFLATED, level 5, one `writestr` per
file, JSON indented by 2): `_journal/start.json`, one `samples/<id>_epoch_<epoch>.json` per sample, the journal's
and the final summaries, and `header.json` last, as on finishing a run. Deterministic (fixed timestamps).

Run: /usr/bin/python3 scripts/reference/inspect_eval_fixture.py
"""

import json
import pathlib
import zipfile

DIR = pathlib.Path(__file__).resolve().parents[2] / "test" / "fixtures" / "formats"
log = json.loads((DIR / "inspect-triviaqa.json").read_text(encoding="utf-8"))
samples = log.pop("samples")
summaries = [{k: s[k] for k in ("id", "epoch", "input", "target", "scores")} for s in samples]
files = [("_journal/start.json", {k: log[k] for k in ("version", "eval", "plan")})]
files += [(f"samples/{s['id']}_epoch_{s['epoch']}.json", s) for s in samples]
files += [("_journal/summaries/1.json", summaries), ("summaries.json", summaries), ("header.json", log)]

out = DIR / "inspect-triviaqa.eval"
with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=5) as z:
    for name, value in files:
        info = zipfile.ZipInfo(name, date_time=(2026, 11, 23, 22, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, json.dumps(value, indent=2, ensure_ascii=False), compresslevel=5)
print(f"wrote {out.relative_to(DIR.parents[2])} ({out.stat().st_size} bytes, {len(files)} files)")
