#!/usr/bin/env python3
"""Checks the structure of deploy/kubernetes/*.yaml (the catalog Job and its volume claim).

    python3 Tests/Fixtures/check-kubernetes.py deploy/kubernetes/*.yaml

Prints one line per problem and exits 1, or prints "ok: N documents". Needs python3-yaml.
"""
import sys

import yaml

CONTAINER = "lyricposter"


def get(node, *keys):
    """node[k1][k2]…, or None as soon as a level is missing or not a mapping."""
    for key in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def is_count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def check_job(doc, claims, problem):
    if doc.get("apiVersion") != "batch/v1":
        problem(f"apiVersion is {doc.get('apiVersion')!r}, not 'batch/v1'")
    spec = doc.get("spec") or {}
    pod = get(spec, "template", "spec") or {}
    if spec.get("completionMode") != "Indexed":
        problem(f"spec.completionMode is {spec.get('completionMode')!r}, not 'Indexed'")
    if not is_count(spec.get("backoffLimitPerIndex")):
        problem(f"spec.backoffLimitPerIndex is {spec.get('backoffLimitPerIndex')!r}, not an int >= 0")
    if pod.get("restartPolicy") != "Never":
        problem(f"template restartPolicy is {pod.get('restartPolicy')!r}, not 'Never'")

    containers = pod.get("containers") or []
    ours = [c for c in containers if isinstance(c, dict) and c.get("name") == CONTAINER]
    if len(ours) != 1:
        problem(f"{len(ours)} containers named {CONTAINER!r} (want exactly 1)")
    for c in ours:
        args = [str(a) for a in c.get("args") or []]
        if not args or args[0] != "catalog":
            problem(f"args do not start with 'catalog': {args}")
        if "--shard" not in args or args[args.index("--shard") + 1:][:1] != ["auto"]:
            problem(f"args lack '--shard auto': {args}")
        if "-o" not in args:
            problem(f"args lack '-o': {args}")
        env = {e.get("name"): e.get("value") for e in c.get("env") or [] if isinstance(e, dict)}
        shards = env.get("LYRICPOSTER_SHARDS")
        try:
            shards = int(shards)
        except (TypeError, ValueError):
            problem(f"env LYRICPOSTER_SHARDS is {shards!r}, not a whole number")
            shards = None
        if shards is not None:
            for key in ("completions", "parallelism"):
                if spec.get(key) != shards:
                    problem(f"spec.{key} is {spec.get(key)!r}, but LYRICPOSTER_SHARDS is {shards}")
        requests = get(c, "resources", "requests") or {}
        for key in ("cpu", "memory"):
            if key not in requests:
                problem(f"resources.requests has no {key}")
        if get(c, "securityContext", "runAsNonRoot") is not True and \
                get(pod, "securityContext", "runAsNonRoot") is not True:
            problem("runAsNonRoot is not true (container or pod securityContext)")

    volumes = {v.get("name"): v for v in pod.get("volumes") or [] if isinstance(v, dict)}
    for c in containers + (pod.get("initContainers") or []):
        for m in (c.get("volumeMounts") or []) if isinstance(c, dict) else []:
            if m.get("name") not in volumes:
                problem(f"container {c.get('name')!r} mounts undeclared volume {m.get('name')!r}")
    for name, v in volumes.items():
        claim = get(v, "persistentVolumeClaim", "claimName")
        if claim is not None and claims and claim not in claims:
            problem(f"volume {name!r} claims {claim!r}, not among the claims given: {sorted(claims)}")

    def fails_index_on_3(rule):
        codes = rule.get("onExitCodes") or {}
        return (rule.get("action") == "FailIndex" and codes.get("containerName") == CONTAINER
                and codes.get("operator") == "In" and 3 in (codes.get("values") or []))
    rules = get(spec, "podFailurePolicy", "rules") or []
    if not any(isinstance(r, dict) and fails_index_on_3(r) for r in rules):
        problem(f"podFailurePolicy has no FailIndex rule for exit code 3 of container {CONTAINER!r}")


def check_claim(doc, problem):
    if doc.get("apiVersion") != "v1":
        problem(f"apiVersion is {doc.get('apiVersion')!r}, not 'v1'")
    if "ReadWriteMany" not in (get(doc, "spec", "accessModes") or []):
        problem("spec.accessModes does not contain ReadWriteMany (all shards write to it at once)")
    if get(doc, "spec", "resources", "requests", "storage") is None:
        problem("spec.resources.requests.storage is missing")


def main(paths):
    if not paths:
        print(f"usage: {sys.argv[0]} FILE.yaml…", file=sys.stderr)
        return 2
    problems, docs = [], []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                loaded = list(yaml.safe_load_all(f))
        except (OSError, yaml.YAMLError) as error:
            problems.append(f"{path}: cannot read: {' '.join(str(error).split())}")
            continue
        docs += [(f"{path}#{i}", d) for i, d in enumerate(loaded, 1) if d is not None]

    claims = {get(d, "metadata", "name") for _, d in docs
              if isinstance(d, dict) and d.get("kind") == "PersistentVolumeClaim"}
    for where, doc in docs:
        if not isinstance(doc, dict):
            problems.append(f"{where}: not a mapping")
            continue
        label = f"{where} ({doc.get('kind')} {get(doc, 'metadata', 'name')})"
        problem = lambda text, label=label: problems.append(f"{label}: {text}")
        if doc.get("kind") == "Job":
            check_job(doc, claims, problem)
        elif doc.get("kind") == "PersistentVolumeClaim":
            check_claim(doc, problem)
        else:
            problem("unknown kind")

    for line in problems:
        print(line)
    if problems:
        return 1
    print(f"ok: {len(docs)} documents")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
