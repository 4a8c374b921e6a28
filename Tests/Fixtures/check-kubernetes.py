#!/usr/bin/env python3
"""Checks the structure of deploy/kubernetes/*.yaml: the catalog Job and its volume claim, and
serve's Deployment, Service and HorizontalPodAutoscaler (checked against each other when given
together: the Service's pods and port, the autoscaler's target).

    python3 Tests/Fixtures/check-kubernetes.py deploy/kubernetes/*.yaml

Prints one line per problem and exits 1, or prints "ok: N documents". Needs python3-yaml.
"""
import sys

import yaml

CONTAINER = "lyricposter"
LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}


def get(node, *keys):
    """node[k1][k2]…, or None as soon as a level is missing or not a mapping."""
    for key in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def is_count(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def labels_match(selector, labels):
    """True when every key of a (non-empty) label selector has the same value in labels."""
    return bool(selector) and isinstance(labels, dict) and \
        all(labels.get(k) == v for k, v in selector.items())


def pod_labels(doc):
    return get(doc, "spec", "template", "metadata", "labels") or {}


def container_ports(pod):
    """The ports the pod's containers declare, as (name, number) pairs."""
    return [(p.get("name"), p.get("containerPort"))
            for c in pod.get("containers") or [] if isinstance(c, dict)
            for p in c.get("ports") or [] if isinstance(p, dict)]


def our_containers(pod, problem):
    containers = pod.get("containers") or []
    ours = [c for c in containers if isinstance(c, dict) and c.get("name") == CONTAINER]
    if len(ours) != 1:
        problem(f"{len(ours)} containers named {CONTAINER!r} (want exactly 1)")
    return ours


def check_non_root(c, pod, problem):
    if get(c, "securityContext", "runAsNonRoot") is not True and \
            get(pod, "securityContext", "runAsNonRoot") is not True:
        problem("runAsNonRoot is not true (container or pod securityContext)")


def check_volumes(pod, claims, problem):
    """Every mount names a declared volume; every claim is among the claims given (if any)."""
    volumes = {v.get("name"): v for v in pod.get("volumes") or [] if isinstance(v, dict)}
    for c in (pod.get("containers") or []) + (pod.get("initContainers") or []):
        for m in (c.get("volumeMounts") or []) if isinstance(c, dict) else []:
            if m.get("name") not in volumes:
                problem(f"container {c.get('name')!r} mounts undeclared volume {m.get('name')!r}")
    for name, v in volumes.items():
        claim = get(v, "persistentVolumeClaim", "claimName")
        if claim is not None and claims and claim not in claims:
            problem(f"volume {name!r} claims {claim!r}, not among the claims given: {sorted(claims)}")


def check_requests_and_user(c, pod, problem):
    """The container asks for cpu and memory and runs as no one in particular (not root)."""
    requests = get(c, "resources", "requests") or {}
    for key in ("cpu", "memory"):
        if key not in requests:
            problem(f"resources.requests has no {key}")
    check_non_root(c, pod, problem)


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

    for c in our_containers(pod, problem):
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
        check_requests_and_user(c, pod, problem)
    check_volumes(pod, claims, problem)

    def fails_index_on_3(rule):
        codes = rule.get("onExitCodes") or {}
        return (rule.get("action") == "FailIndex" and codes.get("containerName") == CONTAINER
                and codes.get("operator") == "In" and 3 in (codes.get("values") or []))
    rules = get(spec, "podFailurePolicy", "rules") or []
    if not any(isinstance(r, dict) and fails_index_on_3(r) for r in rules):
        problem(f"podFailurePolicy has no FailIndex rule for exit code 3 of container {CONTAINER!r}")


def option(args, name):
    """The value after `name` in args (None if absent or last)."""
    return args[args.index(name) + 1] if name in args[:-1] else None


def check_deployment(doc, claims, problem):
    if doc.get("apiVersion") != "apps/v1":
        problem(f"apiVersion is {doc.get('apiVersion')!r}, not 'apps/v1'")
    spec = doc.get("spec") or {}
    pod = get(spec, "template", "spec") or {}
    selector = get(spec, "selector", "matchLabels") or {}
    if not labels_match(selector, pod_labels(doc)):
        problem(f"spec.selector.matchLabels {selector} does not match the template's labels {pod_labels(doc)}")
    ports = container_ports(pod)

    for c in our_containers(pod, problem):
        args = [str(a) for a in c.get("args") or []]
        if not args or args[0] != "serve":
            problem(f"args do not start with 'serve': {args}")
        port = option(args, "--port") or "8484"
        if not any(str(number) == port for _, number in ports):
            problem(f"serve listens on port {port}, which no containerPort declares: {ports}")
        env = {e.get("name"): e for e in c.get("env") or [] if isinstance(e, dict)}
        token = env.get("LYRICPOSTER_TOKEN")
        if "--token" in args or (token is not None and "value" in token):
            problem("the token is written in the manifest (--token or an env value); take it from a Secret")
        elif (option(args, "--listen") or "127.0.0.1") not in LOOPBACK and \
                get(token, "valueFrom", "secretKeyRef", "key") is None:
            problem(f"--listen {option(args, '--listen')} needs a token: env LYRICPOSTER_TOKEN from a secretKeyRef")
        for kind in ("readinessProbe", "livenessProbe"):
            probe = c.get(kind)
            if probe is None:
                if kind == "readinessProbe":
                    problem("no readinessProbe (the Service would send requests to pods not yet listening)")
                continue
            if get(probe, "httpGet", "path") != "/healthz":
                problem(f"{kind} is not an httpGet of /healthz: {probe}")
            probe_port = get(probe, "httpGet", "port")
            if probe_port is not None and not any(probe_port in pair for pair in ports):
                problem(f"{kind} port {probe_port!r} is not a container port: {ports}")
        check_requests_and_user(c, pod, problem)
        if get(c, "securityContext", "readOnlyRootFilesystem") is not True:
            problem("securityContext.readOnlyRootFilesystem is not true")

        # The library folders (the arguments after `serve` before the first option) must each be
        # on a volume mounted read-only: serve never writes to its library.
        library = []
        for arg in args[1:]:
            if arg.startswith("-"):
                break
            library.append(arg)
        if not library:
            problem(f"args name no library folder after 'serve': {args}")
        mounts = [m for m in c.get("volumeMounts") or [] if isinstance(m, dict) and m.get("mountPath")]
        for folder in library:
            under = [m for m in mounts
                     if folder == m["mountPath"] or folder.startswith(m["mountPath"].rstrip("/") + "/")]
            if not under:
                problem(f"library {folder!r} is on no mounted volume")
            elif max(under, key=lambda m: len(m["mountPath"])).get("readOnly") is not True:
                problem(f"library {folder!r} is mounted without readOnly: true")
    check_volumes(pod, claims, problem)


def check_service(doc, deployments, jobs, problem):
    if doc.get("apiVersion") != "v1":
        problem(f"apiVersion is {doc.get('apiVersion')!r}, not 'v1'")
    spec = doc.get("spec") or {}
    selector = spec.get("selector") or {}
    targets = [d for d in deployments.values() if labels_match(selector, pod_labels(d))]
    if not targets:
        problem(f"selector {selector} matches the pods of no Deployment given: {sorted(deployments)}")
    for job in jobs:
        if labels_match(selector, pod_labels(job)):
            problem(f"selector {selector} also matches the pods of Job {get(job, 'metadata', 'name')!r}")
    if not spec.get("ports"):
        problem("spec.ports is empty")
    for port in spec.get("ports") or []:
        target = port.get("targetPort", port.get("port")) if isinstance(port, dict) else None
        for d in targets:
            ports = container_ports(get(d, "spec", "template", "spec") or {})
            if not any(target in pair for pair in ports):
                problem(f"targetPort {target!r} is not a container port of Deployment "
                        f"{get(d, 'metadata', 'name')!r}: {ports}")


def check_autoscaler(doc, deployments, problem):
    if doc.get("apiVersion") != "autoscaling/v2":
        problem(f"apiVersion is {doc.get('apiVersion')!r}, not 'autoscaling/v2'")
    spec = doc.get("spec") or {}
    ref = spec.get("scaleTargetRef") or {}
    target = deployments.get(ref.get("name")) if ref.get("kind") == "Deployment" else None
    if target is None:
        problem(f"scaleTargetRef {ref.get('kind')} {ref.get('name')!r} is not a Deployment given: {sorted(deployments)}")
    if ref.get("apiVersion", "apps/v1") != "apps/v1":
        problem(f"scaleTargetRef.apiVersion is {ref.get('apiVersion')!r}, not 'apps/v1'")

    def cpu_utilization(metric):
        return (metric.get("type") == "Resource" and get(metric, "resource", "name") == "cpu"
                and get(metric, "resource", "target", "type") == "Utilization"
                and is_count(get(metric, "resource", "target", "averageUtilization"))
                and get(metric, "resource", "target", "averageUtilization") > 0)
    if not any(isinstance(m, dict) and cpu_utilization(m) for m in spec.get("metrics") or []):
        problem("metrics has no Resource cpu metric with a Utilization target (averageUtilization > 0)")
    if target is not None:
        for c in get(target, "spec", "template", "spec", "containers") or []:
            if isinstance(c, dict) and get(c, "resources", "requests", "cpu") is None:
                problem(f"container {c.get('name')!r} of the target has no cpu request (Utilization is a share of it)")
    low, high = spec.get("minReplicas", 1), spec.get("maxReplicas")
    if not is_count(low) or low < 1:
        problem(f"spec.minReplicas is {low!r}, not an int >= 1")
    elif not is_count(high) or high < low:
        problem(f"spec.maxReplicas is {high!r}, not an int >= minReplicas ({low})")


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

    def of_kind(kind):
        return [d for _, d in docs if isinstance(d, dict) and d.get("kind") == kind]
    claims = {get(d, "metadata", "name") for d in of_kind("PersistentVolumeClaim")}
    deployments = {get(d, "metadata", "name"): d for d in of_kind("Deployment")}
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
        elif doc.get("kind") == "Deployment":
            check_deployment(doc, claims, problem)
        elif doc.get("kind") == "Service":
            check_service(doc, deployments, of_kind("Job"), problem)
        elif doc.get("kind") == "HorizontalPodAutoscaler":
            check_autoscaler(doc, deployments, problem)
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
