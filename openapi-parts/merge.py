#!/usr/bin/env python3
"""Temporary: merges openapi-parts/*.yaml into one OpenAPI document (used while the contract is
written in parallel; deleted once openapi.yaml is whole). usage: merge.py OUT [PART...]"""
import glob, os, sys, yaml

class Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data):
        return True

def str_presenter(dumper, data):
    if "\n" in data:
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", data)
Dumper.add_representer(str, str_presenter)

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
parts = sys.argv[2:] or sorted(glob.glob(os.path.join(here, "[0-9]*.yaml")))
base = yaml.safe_load(open(os.path.join(here, "00-base.yaml")))
errors = []
for part in parts:
    if os.path.basename(part) == "00-base.yaml":
        continue
    doc = yaml.safe_load(open(part)) or {}
    for path, item in (doc.get("paths") or {}).items():
        if path in base["paths"]:
            for m in item:
                if m in base["paths"][path]:
                    errors.append(f"{part}: duplicate {m.upper()} {path}")
            base["paths"][path].update(item)
        else:
            base["paths"][path] = item
    for section, entries in (doc.get("components") or {}).items():
        dst = base["components"].setdefault(section, {})
        for name, value in (entries or {}).items():
            if name in dst:
                errors.append(f"{part}: duplicate components.{section}.{name}")
            dst[name] = value
if errors:
    print("\n".join(errors), file=sys.stderr)
    sys.exit(1)
with open(out, "w") as f:
    yaml.dump(base, f, Dumper=Dumper, sort_keys=False, width=100, allow_unicode=True)
