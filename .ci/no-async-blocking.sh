#!/usr/bin/env bash
# Fails when a blocking call that Apple's SDKs mark unavailable from asynchronous contexts is made
# directly in one: an `async` function, initializer or accessor, an async closure, or top-level
# code that awaits. Linux's Dispatch, Foundation and Glibc carry no such marks, so a Linux build
# never reports these calls; a Mac's build stops on them.
# Usage: bash .ci/no-async-blocking.sh [file or folder ...]   (paths from the repository root;
# default: every Swift file git tracks)
# VERBOSE=1 lists every blocking call found and whether its context counts as async.
#
# The calls: `DispatchSemaphore.wait`, `DispatchGroup.wait`, `DispatchWorkItem.wait` and
# `NSCondition.wait` (any `.wait(` that is not awaited), `NSLocking.lock()`/`unlock()`, and
# `pthread_join`, `pthread_mutex_lock`/`unlock`, `pthread_cond_wait`/`timedwait`,
# `pthread_rwlock_*lock`, `os_unfair_lock_lock`/`unlock`, `sem_wait`. Move such a call into a
# synchronous function (the tests' Support/Blocking.swift has helpers) and call that instead.
#
# This is a reader of the source, not a compiler. A closure counts as async when it says `async`
# before `in`, awaits in its own body, is given a type with `async`, or is passed to an API whose
# closure is async: `Task`, `addTask`, task groups, `confirmation`, exit tests (`processExitsWith:`),
# a function of this repository declared with only async closure parameters, and the last
# closure (or the `operation:` one) of an awaited call, unless that call is a continuation,
# `MainActor.run` or `assumeIsolated`; in `withTaskCancellationHandler`, the operation.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -eq 0 ]; then
  mapfile -t files < <(git ls-files '*.swift')
else
  mapfile -t files < <(find "$@" -name '*.swift' -not -path '*/.build/*' | sort)
fi

python3 - "${files[@]}" <<'PY'
import os, re, sys

BLOCKING = re.compile(
    r"(?<![\w.])(pthread_join|pthread_mutex_lock|pthread_mutex_unlock|pthread_cond_wait"
    r"|pthread_cond_timedwait|pthread_rwlock_rdlock|pthread_rwlock_wrlock|pthread_rwlock_unlock"
    r"|os_unfair_lock_lock|os_unfair_lock_unlock|sem_wait)\s*\("
    r"|\.(wait)\s*\(|\.(lock|unlock)\s*\(\s*(\)|before:|whenCondition:|withCondition:)"
)
CONTROL = {"if", "guard", "else", "for", "while", "repeat", "do", "catch", "switch", "defer"}
TYPES = {"struct", "class", "enum", "extension", "protocol", "actor"}
MODIFIERS = {
    "public", "private", "fileprivate", "internal", "open", "package", "static", "final",
    "override", "mutating", "nonmutating", "nonisolated", "lazy", "weak", "unowned", "indirect",
    "convenience", "required", "dynamic", "optional", "consuming", "borrowing", "distributed",
}
ACCESSORS = {"get", "set", "willSet", "didSet", "_read", "_modify", "unsafeAddress",
             "unsafeMutableAddress", "init"}
ASYNC_APIS = re.compile(
    r"(\bTask(\s*<[^<>]*>)?(\.detached)?|\.add\w*Task\w*|\bwith(Throwing)?(Discarding)?TaskGroup"
    r"|\bconfirmation|\bwithTaskCancellationHandler|processExitsWith:.*)\s*(\(.*\))?\s*$", re.S)
SYNC_APIS = re.compile(
    r"(\bwith(Checked|Unsafe)(Throwing)?Continuation|\bMainActor\.run|\bassumeIsolated"
    r"|\bonCancel:)\s*(\(.*\))?\s*$", re.S)


def blank(text):
    """The source with comments and string literals turned into spaces (newlines kept)."""
    out, i, n = list(text), 0, len(text)
    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j); i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j): depth += 1; j += 2
                elif text.startswith("*/", j): depth -= 1; j += 2
                else: j += 1
            wipe(i, j); i = j
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r"#*", text[i:]).group(0))
            j = i + hashes
            multi = text.startswith('"""', j)
            close = ('"""' if multi else '"') + "#" * hashes
            j += 3 if multi else 1
            while j < n and not text.startswith(close, j):
                if text[j] == "\\" and hashes == 0: j += 2
                elif text[j] == "\n" and not multi: break
                else: j += 1
            j = min(n, j + len(close))
            wipe(i, j); i = j
        else:
            i += 1
    return "".join(out)


def matching(code, i, open_, close):
    """The index of the bracket that closes the one at i."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] == open_: depth += 1
        elif code[j] == close:
            depth -= 1
            if depth == 0:
                return j
    return len(code)


CONTINUED_END = (",", "(", "[", "=", "->", "&&", "||", ":", ".", "?")
CONTINUED_START = (".", "->", "async", "throws", "rethrows", "where", "&&", "||", "?", ":", ")", "]")


def header(code, p):
    """The text of the statement before index p, and the character it stopped at."""
    depth, i = 0, p - 1
    while i >= 0:
        c = code[i]
        if c in ")]":
            depth += 1
        elif c in "([":
            if depth == 0:
                return code[i + 1:p], c, i
            depth -= 1
        elif depth == 0 and c in "{};,":
            return code[i + 1:p], c, i
        elif depth == 0 and c == "\n":
            j = i
            while j > 0 and code[j - 1].isspace():
                j -= 1
            before = code[code.rfind("\n", 0, j) + 1:j].strip()
            after = code[i + 1:p].strip()
            if not (before.endswith(CONTINUED_END) or after.startswith(CONTINUED_START)
                    or before.startswith("@") and not after.startswith("@")):
                return code[i + 1:p], c, i
        i -= 1
    return code[:p], "", -1


def strip_depth(text):
    """text with everything inside (), [] and <> of generic clauses removed."""
    out, depth = [], 0
    for c in text:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def words(text):
    """The header's words, with attributes and modifiers dropped from its front."""
    text = re.sub(r"@\w+(\.\w+)*", " ", strip_depth(text))
    result = re.findall(r"[A-Za-z_#]\w*|[^\sA-Za-z_]", text)
    while result and (result[0] in MODIFIERS or result[0] in ("(", ")", "set")):
        result.pop(0)
    return result


def function_is_async(text):
    """Whether a `func`/`init` header says `async` after its parameter list."""
    m = re.search(r"\b(func|init|subscript)\b", text)
    open_ = text.find("(", m.end())
    if open_ < 0:
        return False
    rest = text[matching(text, open_, "(", ")") + 1:]
    rest = re.split(r"->|\bwhere\b", rest)[0]
    return re.search(r"\basync\b", rest) is not None


def collect_async_parameter_functions(sources):
    """Names (Type.name or name) of this repository's functions whose closure parameters are all
    async, with no overload of the same name taking a synchronous closure."""
    verdict = {}
    for code in sources:
        for m in re.finditer(r"\bfunc\s+(\w+)\s*(<[^{]*?>)?\s*\(", code):
            params = code[m.end() - 1:matching(code, m.end() - 1, "(", ")") + 1]
            closures = re.findall(r"\([^()]*\)\s*(async)?\s*(throws)?\s*(\([^()]*\))?\s*->", params)
            if not closures:
                continue
            is_async = all(c[0] for c in closures)
            verdict[m.group(1)] = verdict.get(m.group(1), True) and is_async
    return {name for name, ok in verdict.items() if ok}


class Scope:
    def __init__(self, start, kind, is_async, owner, note):
        self.start, self.kind, self.is_async, self.owner, self.note = start, kind, is_async, owner, note
        self.end, self.awaits = None, False


def callee_header(code, p):
    """For a closure at p: the text of the call it is an argument of, with its statement."""
    text, stop, at = header(code, p)
    if stop == "}" and re.match(r"\s*\w+\s*:\s*$", text):
        # A labelled trailing closure: the call is the one the previous closure belongs to.
        opening = previous_open(code, at)
        return callee_header(code, opening)[0] + " " + text.strip(), text
    if stop in "(,":
        # An argument inside parentheses: find its opening parenthesis, then the call before it.
        depth, i = 0, p - 1
        while i >= 0:
            if code[i] in ")]}": depth += 1
            elif code[i] in "([{":
                if depth == 0: break
                depth -= 1
            i -= 1
        if i >= 0 and code[i] == "(":
            return callee_header(code, i)[0] + "(" + text, text
    return text, text


def previous_open(code, close):
    depth = 0
    for i in range(close, -1, -1):
        if code[i] == "}": depth += 1
        elif code[i] == "{":
            depth -= 1
            if depth == 0:
                return i
    return 0


def classify(code, p, async_functions):
    """(kind, is_async or None for inherit, note) of the brace at p."""
    text, stop, at = header(code, p)
    w = words(text)
    first = w[0] if w else ""
    flat = strip_depth(text)
    if first in CONTROL or (stop == "}" and first in ("else", "catch", "while")):
        return "block", None, ""
    if re.search(r"\b(func|init|subscript)\b", flat) and "=" not in re.sub(r"[=!<>]=|->", "", flat):
        return "function", function_is_async(text), ""
    if first == "deinit":
        return "function", False, ""
    if first in TYPES or (first in MODIFIERS and any(x in TYPES for x in w[:3])):
        return "type", False, ""
    if first in ACCESSORS and stop in "{;\n" and re.fullmatch(r"\s*\w+(\s+(async|throws))*\s*", flat):
        return "accessor", "async" in w, ""
    if first in ("var", "let") and "=" not in re.sub(r"[=!<>]=|->", "", flat):
        return "property", False, ""
    # A closure.
    # A closure's signature is on the line of its brace.
    eol = code.find("\n", p)
    after = code[p + 1:eol if eol >= 0 else len(code)]
    sig = re.match(r"\s*(\[[^\]]*\]\s*)?((\([^()]*\)|[\w\s,]+?)\s*(async\s*)?(throws(\([^()]*\))?\s*)?"
                   r"(->[^{}]*?)?)\bin\b", after)
    if sig and not re.match(r"\s*(for|case|let|var|if|guard|while|return|try|await|switch)\b",
                            after) and re.search(r"\basync\b", strip_depth(sig.group(2) or "")):
        return "closure", True, "says async"
    if re.search(r":[^=]*\basync\b[^=]*=\s*$", text):
        return "closure", True, "typed async"
    call, own = callee_header(code, p)
    call_flat = call.strip()
    if SYNC_APIS.search(own.strip()) or SYNC_APIS.search(call_flat):
        return "closure", False, ""
    if ASYNC_APIS.search(call_flat):
        return "closure", True, "passed to an async API"
    name = re.search(r"((\w+)\s*\.\s*)?(\w+)\s*(\(.*\))?\s*(\w+\s*:\s*)?$", strip_depth(call_flat))
    if name and name.group(3) in async_functions:
        return "closure", True, f"passed to {name.group(3)}, which takes async closures"
    end = matching(code, p, "{", "}")
    followed = re.match(r"\s*\w+\s*:\s*\{", code[end + 1:end + 200])
    label = re.search(r"(\w+)\s*:\s*$", own)
    if re.search(r"\bawait\b", call_flat) and (not followed or (label and label.group(1) == "operation")):
        return "closure", True, "the last closure of an awaited call"
    return "closure", False, ""


def check(path, code, async_functions, problems):
    top = Scope(0, "file", False, None, "")
    top.owner = top
    stack, scopes = [top], [top]
    events = []  # (position, kind, payload)
    for m in re.finditer(r"[{}]|\bawait\b", code):
        events.append(m)
    for m in events:
        token, pos = m.group(0), m.start()
        if token == "{":
            kind, is_async, note = classify(code, pos, async_functions)
            owner = stack[-1].owner if is_async is None else None
            scope = Scope(pos, kind, is_async, owner, note)
            if owner is None:
                scope.owner = scope
            stack.append(scope)
            scopes.append(scope)
        elif token == "}":
            if len(stack) > 1:
                stack.pop().end = pos
        else:
            stack[-1].owner.awaits = True
    if os.path.basename(path) == "main.swift" and top.awaits:
        top.is_async, top.note = True, "top-level code that awaits"
    for scope in scopes:
        if scope.kind == "closure" and not scope.is_async and scope.awaits:
            scope.is_async, scope.note = True, "awaits in its body"
    # The innermost scope of each blocking call.
    for m in BLOCKING.finditer(code):
        pos = m.start()
        line_start = code.rfind("\n", 0, pos) + 1
        before = re.split(r"[{};]|\bin\b", code[line_start:pos])[-1]
        if m.group(2) == "wait" and re.search(r"\bawait\b", before):
            continue  # an async `wait`, awaited
        inner = top
        for scope in scopes[1:]:
            if scope.start < pos and (scope.end is None or pos < scope.end) and scope.start > inner.start:
                inner = scope
        owner = inner.owner
        if VERBOSE:
            line = code.count("\n", 0, pos) + 1
            print(f"{path}:{line}: {m.group(0)} in {owner.kind} from line "
                  f"{code.count(chr(10), 0, owner.start) + 1}: {'async' if owner.is_async else 'sync'}",
                  file=sys.stderr)
        if owner.is_async:
            name = m.group(1) or "." + (m.group(2) or m.group(3))
            line = code.count("\n", 0, pos) + 1
            start = code.count("\n", 0, owner.start) + 1
            where = {"function": "an async function", "closure": "an async closure",
                     "accessor": "an async accessor", "file": "top-level code that awaits"}[owner.kind]
            detail = f" ({owner.note})" if owner.note and owner.kind == "closure" else ""
            problems.append(f"{path}:{line}: {name}(…) in {where} from line {start}{detail}")


VERBOSE = os.environ.get("VERBOSE") == "1"  # every call found, and the context it is in
paths = [p for p in sys.argv[1:] if "/.build/" not in p and os.path.isfile(p)]
sources = {p: blank(open(p, encoding="utf-8").read()) for p in paths}
async_functions = collect_async_parameter_functions(sources.values())
problems = []
for path, code in sources.items():
    check(path, code, async_functions, problems)
for problem in problems:
    print(problem)
if problems:
    print(f"error: {len(problems)} blocking call(s) in asynchronous contexts; Apple's SDKs reject "
          "them there. Call them from a synchronous function instead.", file=sys.stderr)
    sys.exit(1)
print(f"no blocking calls in asynchronous contexts ({len(paths)} Swift files)")
PY
