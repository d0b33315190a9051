// The standard library the phone's engine loads (scoring/web_engine.py runs this once per Pyodide
// version and engine): Pyodide ships python_stdlib.zip as .py sources, so every start without a
// snapshot compiled each module Python's start-up and the engine import. Here the phone's own
// CPython (Pyodide under Node) compiles them once, and keeps only what is used: the modules
// imported by Pyodide's start-up, the engine's import, whole simulated matches through the
// worker's entry points, an error's traceback and a memory snapshot (plus the codecs, looked up
// by name), and the engine's own modules as .pyc under __engine__/. Usage: node scripts/pyodide-stdlib.mjs <engine bundle.zip> <out.zip>
import { readFileSync, writeFileSync } from "node:fs";
import { argv } from "node:process";
import { loadPyodide } from "pyodide";

const [bundle, out] = argv.slice(2);
if (!bundle || !out) throw new Error("usage: node scripts/pyodide-stdlib.mjs <engine bundle.zip> <out.zip>");
const py = await loadPyodide({ _makeSnapshot: true });
py.unpackArchive(new Uint8Array(readFileSync(bundle)), "zip", { extractDir: "/engine" });
py.runPython(`
import json, sys
sys.path.insert(0, "/engine")
from matchplay import scorer_local
from rules_engine.api import play_random

for seed in (1, 2, 3):
    header = {"advanced_rules": "all", "teams": {"home": {"name": "Blue", "formation": "4-4-2"},
              "away": {"name": "Red", "formation": "3-5-2"}}}
    log = play_random(header, seed).to_log()
    events = log.pop("events")
    scorer_local.open_match(json.dumps({"header": log, "names": {"home": "Blue", "away": "Red"}, "events": []}))
    rows = []
    for i, event in enumerate(events):
        scorer_local.apply(json.dumps({"events": [{"client_id": str(i), "event": event}], "seed": i}))
        rows.append({"seq": i + 1, "data": event, "side": "home", "rolled_by_app": False})
        scorer_local.lines(json.dumps(rows[-12:]))
        if i % 25 == 0:
            scorer_local.prepare()
            scorer_local.undo()
            scorer_local.apply(json.dumps({"events": [{"client_id": str(i), "event": event}], "seed": i}))
    scorer_local.view(); scorer_local.log()
    scorer_local.replay_digest(json.dumps({"header": log, "names": {"home": "Blue", "away": "Red"}, "events": events[:40]}))
`);
try { py.runPython("raise ValueError('probe')"); } catch (e) { /* the traceback's modules are imported */ }
py.makeMemorySnapshot();
py.runPython(`
import importlib.util, io, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

stdlib = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
used = {name for name, m in list(sys.modules.items()) if (getattr(m, "__file__", "") or "").startswith(stdlib)}
used |= {name.rsplit(".", 1)[0] for name in used if "." in name}
KEEP_WHOLE = {"encodings"}

def kept(path):
    parts = path.removesuffix(".py").split("/")
    if parts[0] in KEEP_WHOLE:
        return True
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) in used

src = zipfile.ZipFile(stdlib)
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dst:
    for info in sorted(src.infolist(), key=lambda i: i.filename):
        name = info.filename
        if name.endswith("/") or not name.endswith(".py") or not kept(name):
            continue
        data = src.read(name)
        code = compile(data, name, "exec", dont_inherit=True)
        # An unchecked hash .pyc: no source to compare with, the same bytes at every build.
        entry = zipfile.ZipInfo(name + "c", date_time=(2020, 1, 1, 0, 0, 0))
        entry.compress_type = zipfile.ZIP_DEFLATED
        dst.writestr(entry, bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), False)))
    # The engine's modules compiled as well, as the __pycache__ files of /engine (the worker
    # extracts them there: the import then reads them instead of compiling the sources).
    import os
    for folder, _, files in sorted(os.walk("/engine")):
        for file in sorted(f for f in files if f.endswith(".py")):
            path = f"{folder}/{file}"
            data = open(path, "rb").read()
            code = compile(data, path, "exec", dont_inherit=True)
            cached = importlib.util.cache_from_source(path).removeprefix("/engine/")
            entry = zipfile.ZipInfo("__engine__/" + cached, date_time=(2020, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(entry, bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), False)))
open("/tmp/stdlib.zip", "wb").write(buf.getvalue())
`);
writeFileSync(out, py.FS.readFile("/tmp/stdlib.zip"));
