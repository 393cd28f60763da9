"""The hand-written stubs of the nanobind modules against the built modules:
python/src/ferry/_core.pyi (ferry._core) and compat/oasis/python/pyoasis/_oasis.pyi
(pyoasis._oasis).

Every public name of a module (functions, classes, their methods, properties and
enum members) must be in the stub and every name of the stub in the module, with the
same parameters: names, order, which have defaults, keyword-only and positional-only
markers. Types are not compared: the stub spells them for readers (type aliases such
as Arrays, Comm), the module as nanobind sees them. Type aliases (``X: TypeAlias =
...``) exist in the stub only.
"""

import ast
import enum
import importlib
import inspect
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUBS = {
    "ferry._core": ROOT / "python" / "src" / "ferry" / "_core.pyi",
    "pyoasis._oasis": ROOT / "compat" / "oasis" / "python" / "pyoasis" / "_oasis.pyi",
}
MODULES = {name: importlib.import_module(name) for name in STUBS}

# Protocol methods that are part of a class's interface when a class defines them.
PROTOCOL_DUNDERS = {
    "__init__", "__enter__", "__exit__", "__call__", "__len__", "__iter__", "__getitem__",
    "__contains__",
}


def public(name):
    return not name.startswith("_") or name in PROTOCOL_DUNDERS


# ---- Parameters as (name, has_default) with "*" and "/" markers, self/cls dropped ----


def stub_parameters(node):
    args = node.args
    params = []
    positional = args.posonlyargs + args.args
    first_default = len(positional) - len(args.defaults)
    for i, a in enumerate(positional):
        params.append((a.arg, i >= first_default))
        if args.posonlyargs and i == len(args.posonlyargs) - 1:
            params.append(("/", False))
    if args.vararg:
        params.append(("*" + args.vararg.arg, False))
    elif args.kwonlyargs:
        params.append(("*", False))
    for a, default in zip(args.kwonlyargs, args.kw_defaults):
        params.append((a.arg, default is not None))
    if args.kwarg:
        params.append(("**" + args.kwarg.arg, False))
    return drop_self(params)


def split_top_level(text, separator):
    """Splits text at the separators outside brackets and quotes."""
    parts, depth, quote, current = [], 0, None, ""
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == separator and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += ch
    parts.append(current.strip())
    return parts


def runtime_parameters(signature):
    """Parameters of one nanobind signature, 'def name(a: T, b: U = \\0) -> R'."""
    opening = signature.index("(")
    depth = 0
    for i in range(opening, len(signature)):
        depth += {"(": 1, ")": -1}.get(signature[i], 0)
        if depth == 0:
            closing = i
            break
    params = []
    for part in split_top_level(signature[opening + 1 : closing], ","):
        if part:
            name = part.split(":")[0].split("=")[0].strip()
            params.append((name, len(split_top_level(part, "=")) > 1))
    return drop_self(params)


def drop_self(params):
    if params and params[0][0] in ("self", "cls"):
        return tuple(params[1:])
    return tuple(params)


def runtime_signatures(function):
    return {runtime_parameters(s[0]) for s in function.__nb_signature__}


# ---- The stub, read with ast ----


def is_type_alias(node):
    return (isinstance(node, ast.AnnAssign) and isinstance(node.annotation, ast.Name)
            and node.annotation.id == "TypeAlias")


def decorators(node):
    return {ast.unparse(d) for d in node.decorator_list}


def stub_module(stub):
    tree = ast.parse(stub.read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Expr)) or is_type_alias(node):
            continue
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.AnnAssign):
            names.setdefault(node.target.id, []).append(node)
        else:
            pytest.fail(f"{stub.name}:{node.lineno}: unexpected statement {ast.unparse(node)}")
    return names


STUB_NAMES = {module: stub_module(stub) for module, stub in STUBS.items()}


@pytest.mark.parametrize("module", sorted(STUBS))
def test_module_names_match(module):
    versioned = {"__version__"} if hasattr(MODULES[module], "__version__") else set()
    runtime = {n for n in dir(MODULES[module]) if public(n)} | versioned
    stub = set(STUB_NAMES[module])
    assert sorted(runtime - stub) == [], f"in {module} but not in the stub"
    assert sorted(stub - runtime) == [], f"in the stub but not in {module}"


def stub_names_of(kind):
    return sorted((module, n) for module, names in STUB_NAMES.items()
                  for n, nodes in names.items() if isinstance(nodes[0], kind))


FUNCTIONS = stub_names_of(ast.FunctionDef)
CLASSES = stub_names_of(ast.ClassDef)


@pytest.mark.parametrize(("module", "name"), FUNCTIONS, ids=[f"{m}.{n}" for m, n in FUNCTIONS])
def test_function_signatures_match(module, name):
    stub = {stub_parameters(node) for node in STUB_NAMES[module][name]}
    assert stub == runtime_signatures(getattr(MODULES[module], name)), name


def class_members(node):
    """{name: [nodes]} of a stub class body (docstrings skipped)."""
    members = {}
    for item in node.body:
        if isinstance(item, ast.Expr):
            continue
        if isinstance(item, ast.FunctionDef):
            members.setdefault(item.name, []).append(item)
        elif isinstance(item, (ast.Assign, ast.AnnAssign)):
            target = item.targets[0] if isinstance(item, ast.Assign) else item.target
            members.setdefault(target.id, []).append(item)
        else:
            pytest.fail(f"line {item.lineno}: unexpected class member {ast.unparse(item)}")
    return members


def runtime_members(cls):
    if issubclass(cls, enum.Enum):
        return set(cls.__members__)
    names = set()
    for name, value in vars(cls).items():
        if not public(name):
            continue
        if name == "__init__" and not hasattr(value, "__nb_signature__"):
            continue  # the default __init__: not constructible from Python
        names.add(name)
    return names


@pytest.mark.parametrize(("module", "name"), CLASSES, ids=[f"{m}.{n}" for m, n in CLASSES])
def test_class_members_match(module, name):
    cls = getattr(MODULES[module], name)
    (node,) = STUB_NAMES[module][name]
    namespace = {"enum": enum, "RuntimeError": RuntimeError}
    for base in map(ast.unparse, node.bases):
        assert issubclass(cls, eval(base, namespace)), f"{name} is not a subclass of {base}"
    members = class_members(node)
    if issubclass(cls, BaseException):
        # Attributes an exception gets when raised (code, rank) are only annotated.
        members = {n: m for n, m in members.items() if not isinstance(m[0], ast.AnnAssign)}
    runtime = runtime_members(cls)
    assert sorted(runtime - set(members)) == [], f"members of {name} not in the stub"
    assert sorted(set(members) - runtime) == [], f"members of {name} in the stub only"
    if issubclass(cls, enum.Enum):
        for member, (item,) in members.items():
            assert cls[member].value == ast.literal_eval(item.value), f"{name}.{member}"


METHODS = [
    (getattr(MODULES[module], cls_name), member, nodes)
    for module, cls_name in CLASSES
    if not issubclass(getattr(MODULES[module], cls_name), enum.Enum)
    for member, nodes in class_members(STUB_NAMES[module][cls_name][0]).items()
    if isinstance(nodes[0], ast.FunctionDef)
]


@pytest.mark.parametrize(("cls", "member", "nodes"), METHODS,
                         ids=[f"{c.__module__}.{c.__name__}.{m}" for c, m, _ in METHODS])
def test_method_kinds_and_signatures_match(cls, member, nodes):
    cls_name = cls.__name__
    value = inspect.getattr_static(cls, member)
    kinds = decorators(nodes[0])
    if "property" in kinds:
        assert isinstance(value, property), f"{cls_name}.{member} is not a property"
        has_setter = any(f"{member}.setter" in decorators(n) for n in nodes)
        assert has_setter == (value.fset is not None), f"{cls_name}.{member}: setter"
        return
    assert not isinstance(value, property), f"{cls_name}.{member} is a property"
    static = type(value).__name__ == "nb_func"  # methods are nb_method
    assert ("staticmethod" in kinds) == static, f"{cls_name}.{member}: staticmethod"
    stub = {stub_parameters(n) for n in nodes}
    assert stub == runtime_signatures(value), f"{cls_name}.{member}"
