#!/usr/bin/env python3
"""The workspace's layering checks (issue 27), run by .ci/test:

1. No crate outside verifier-mcu/ depends on a crate inside it (the firmware folder is the
   top floor; shared building blocks live beside core, in blocks/).
2. No import circle between the files of a crate: within each crate's src/, the graph of
   `crate::` / `super::` / `self::` paths from one module file to another has no cycle
   (test modules excluded: a file's tests may use anything).

Prints every violation and exits 1 if there is one. Reads the sources only (no build).
`--self-test` first checks that both checks fire on a made-up workspace with one of each.
"""
import os
import re
import sys
import tempfile
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def manifests():
    """Every Cargo.toml of this repository with a src/ beside it (workspace or not)."""
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in ("target", ".git", "results", "out")]
        if "Cargo.toml" in filenames and os.path.isdir(os.path.join(dirpath, "src")):
            yield dirpath


def path_deps(crate_dir):
    """The local path dependencies named in a Cargo.toml (any table), resolved."""
    text = open(os.path.join(crate_dir, "Cargo.toml")).read()
    for m in re.finditer(r'path\s*=\s*"([^"]+)"', text):
        dep = os.path.normpath(os.path.join(crate_dir, m.group(1)))
        if os.path.isfile(os.path.join(dep, "Cargo.toml")):
            yield dep


def check_floors():
    top = os.path.join(ROOT, "verifier-mcu")
    bad = []
    for crate in manifests():
        if crate.startswith(top + os.sep) or crate == top:
            continue
        for dep in path_deps(crate):
            if dep.startswith(top + os.sep):
                bad.append(f"{os.path.relpath(crate, ROOT)} depends on {os.path.relpath(dep, ROOT)}")
    return bad


def strip(source):
    """Source without comments, visibility restrictions and `#[cfg(test)]` modules."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    source = re.sub(r"//[^\n]*", "", source)
    source = re.sub(r'"(?:\\.|[^"\\])*"', '""', source)
    source = re.sub(r"pub\((?:super|crate|self|in [^)]*)\)", "pub", source)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub\s+)?mod\s+\w+\s*\{", source):
        if m.start() < i:
            continue
        out.append(source[i:m.start()])
        depth, j = 1, m.end()
        while j < len(source) and depth:
            depth += {"{": 1, "}": -1}.get(source[j], 0)
            j += 1
        i = j
    out.append(source[i:])
    return "".join(out)


def use_paths(tree, prefix=()):
    """Expands a use tree (`a::{b, c::{d as e}}`) into paths (tuples of segments)."""
    tree = tree.strip()
    depth, start, parts = 0, 0, []
    if tree.endswith("}") and "{" in tree:
        head, body = tree.split("{", 1)
        head = [s for s in head.strip().rstrip(":").split("::") if s]
        body = body[:-1]
        for k, ch in enumerate(body):
            depth += {"{": 1, "}": -1}.get(ch, 0)
            if ch == "," and depth == 0:
                parts.append(body[start:k])
                start = k + 1
        parts.append(body[start:])
        for p in parts:
            if p.strip():
                yield from use_paths(p, prefix + tuple(head))
        return
    tree = tree.split(" as ")[0].strip()
    yield prefix + tuple(s for s in tree.split("::") if s and s != "*")


def module_files(src):
    files = {}
    for dirpath, _, filenames in os.walk(src):
        for f in filenames:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(dirpath, f)
            parts = os.path.relpath(path, src)[:-3].split(os.sep)
            if parts[0] == "bin":
                continue
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            files[tuple(parts)] = path
    return files


def check_circles():
    bad = []
    for crate in manifests():
        src = os.path.join(crate, "src")
        files = module_files(src)
        edges = defaultdict(set)
        for mod, path in files.items():
            source = strip(open(path).read())
            paths = []
            for m in re.finditer(r"\buse\s+([^;]+);", source):
                paths.extend(use_paths(m.group(1)))
            for m in re.finditer(r"\b(?:crate|super|self)(?:::(?:super|\w+))+", source):
                paths.append(tuple(m.group(0).split("::")))
            for p in paths:
                if not p or p[0] not in ("crate", "super", "self"):
                    continue
                cur = [] if p[0] == "crate" else list(mod)
                rest = list(p[1:]) if p[0] in ("crate", "self") else list(p)
                while rest and rest[0] == "super":
                    cur, rest = cur[:-1], rest[1:]
                target = tuple(cur)
                for seg in rest:
                    if target + (seg,) in files:
                        target += (seg,)
                    else:
                        break
                if target != mod and target in files:
                    edges[mod].add(target)
        for comp in cycles(files, edges):
            names = " <-> ".join(sorted("/".join(m) or "(crate root)" for m in comp))
            bad.append(f"{os.path.relpath(src, ROOT)}: import circle {names}")
    return bad


def cycles(nodes, edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def self_test():
    """Both checks on a made-up workspace: a crate below verifier-mcu/ depending on one inside
    it, and a circle a -> b -> a through a nested use group; a clean crate beside them."""
    global ROOT
    saved = ROOT
    with tempfile.TemporaryDirectory() as tmp:
        files = {
            "low/Cargo.toml": '[dependencies]\ndrv = { path = "../verifier-mcu/drv" }\n',
            "low/src/lib.rs": "mod a;\nmod b;\n",
            "low/src/a.rs": "use crate::{b::{f as g}, c};\npub fn h() {}\n",
            "low/src/b.rs": "pub fn f() { super::a::h() }\n#[cfg(test)]\nmod tests { use crate::a; }\n",
            "verifier-mcu/drv/Cargo.toml": "[dependencies]\n",
            "verifier-mcu/drv/src/lib.rs": "mod x;\nmod y;\n",
            "verifier-mcu/drv/src/x.rs": "pub(super) fn f() { crate::y::g() } // crate::x\n",
            "verifier-mcu/drv/src/y.rs": "pub fn g() {}\n#[cfg(test)]\nmod tests { use crate::x; }\n",
        }
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(tmp, name)), exist_ok=True)
            open(os.path.join(tmp, name), "w").write(text)
        ROOT = tmp
        floors, circles = check_floors(), check_circles()
        ROOT = saved
    assert floors == ["low depends on verifier-mcu/drv"], floors
    assert circles == ["low/src: import circle a <-> b"], circles
    print("ok: the self-test's floor violation and circle are found, and nothing else")


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        self_test()
    problems = check_floors() + check_circles()
    for p in problems:
        print("FAIL:", p)
    if problems:
        sys.exit(1)
    print("ok: no crate depends on one inside verifier-mcu/, no import circle between files")
