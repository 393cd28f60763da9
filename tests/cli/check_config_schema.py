"""`ferry config-schema` against an independent JSON Schema validator.

The schema must be a valid draft 2020-12 schema; every configuration the project
ships (examples/, tests/data/, and the YAML blocks of docs/user/ that are whole
configurations) must pass it; and configurations with mistakes the schema can state
(a misspelt key, a value not allowed, keys that exclude each other, an engine's
unknown option, an engine put/get cannot use) must fail it.

Usage: check_config_schema.py FERRY SOURCE_DIR
YAML is read as YAML 1.2 (the core schema) reads it, as yaml-cpp and editors do:
PyYAML's YAML 1.1 would read "1e+20" as text and "no" as false.
"""

import json
import pathlib
import re
import subprocess
import sys

import jsonschema
import yaml


class Yaml12Loader(yaml.SafeLoader):
    """SafeLoader with the YAML 1.2 core schema's booleans, integers and floats."""


Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers
            if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
                           "tag:yaml.org,2002:float")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
for tag, pattern, firsts in [
        ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
        ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
        ("tag:yaml.org,2002:float",
         r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
         r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+.0123456789")]:
    Yaml12Loader.add_implicit_resolver(tag, re.compile(pattern), list(firsts))


def construct_int(loader, node):
    text = loader.construct_scalar(node)
    return int(text, 0) if text[:2] in ("0o", "0x") else int(text)


Yaml12Loader.add_constructor("tag:yaml.org,2002:int", construct_int)


def load(text):
    return yaml.load(text, Loader=Yaml12Loader)


# The files of tests/data made with mistakes, for the error tests.
MISTAKEN = ("config_with_typo.yaml", "config_with_tab.yaml", "config_with_problems.yaml")


def shipped_configs(source):
    """(name, text) of every whole configuration the project ships."""
    for pattern in ("examples/**/*.yaml", "tests/data/*.yaml"):
        for path in sorted(source.glob(pattern)):
            text = path.read_text()
            if re.search(r"^version: 1$", text, re.M) and path.name not in MISTAKEN:
                yield str(path.relative_to(source)), text
    for path in sorted((source / "docs/user").glob("*.md")):
        for number, block in enumerate(re.findall(r"```yaml\n(.*?)```", path.read_text(), re.S)):
            if re.search(r"^version: 1$", block, re.M):
                yield f"{path.relative_to(source)} block {number + 1}", block


def invalid_configs(source):
    """(name, text) of configurations with a mistake the schema states."""
    for name in ("config_with_typo.yaml", "config_with_problems.yaml"):
        yield name, (source / "tests/data" / name).read_text()
    for name in ("weights_and_method", "regridding_key_without_weights",
                 "method_key_of_another_method", "butterfly_on_put_get",
                 "misspelt_engine_option", "option_of_another_engine"):
        yield name, (source / "tests/data/rules" / f"{name}.yaml").read_text()
    minimal = (source / "examples/config/minimal.yaml").read_text()
    yield "no version", minimal.replace("version: 1\n", "")
    yield "period with a unit", minimal.replace("period: 3600", "period: 1h")
    yield "no exchanges", "version: 1\nrun: {length: 10}\n"
    yield "version 2", minimal.replace("version: 1", "version: 2")


def main():
    ferry, source = sys.argv[1], pathlib.Path(sys.argv[2])
    schema = json.loads(subprocess.run([ferry, "config-schema"], check=True,
                                       capture_output=True, text=True).stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []
    valid = list(shipped_configs(source))
    for name, text in valid:
        errors = list(validator.iter_errors(load(text)))
        if errors:
            failures.append(f"{name}: refused: {errors[0].message}")
    invalid = list(invalid_configs(source))
    for name, text in invalid:
        if validator.is_valid(load(text)):
            failures.append(f"{name}: accepted, but it has a mistake")
    if len(valid) < 6:
        failures.append(f"only {len(valid)} shipped configurations found")
    for failure in failures:
        print(failure)
    print(f"{len(valid)} shipped configurations valid, {len(invalid)} with mistakes refused"
          if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
