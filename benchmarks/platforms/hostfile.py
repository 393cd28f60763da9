#!/usr/bin/env python3
"""Writes an SMPI hostfile that fills the nodes of a platform's cluster in order.

A coupled run has two components, as in the data-transfer paper: the source
component's ranks fill the first nodes, core by core, and the destination
component starts on the next free node, so the two never share a node and every
transfer between them crosses the network. A rearrangement inside one component
(`--dst 0`) simply fills nodes in order.

    hostfile.py tansuo100.xml --src 192 --dst 192 > hosts
    smpirun -np 384 -platform tansuo100.xml -hostfile hosts ...

The ranks are listed one per line, in rank order; `ferry bench exchange
--groups split` makes the first half of the ranks the source component.
"""

import argparse
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass


@dataclass(frozen=True)
class Cluster:
    """The nodes of a platform file's <cluster> element."""

    names: list
    cores: int


def _expand_radical(radical):
    """SimGrid's radical syntax: "0-3,7,9-10" -> [0, 1, 2, 3, 7, 9, 10]."""
    numbers = []
    for part in radical.split(","):
        first, _, last = part.partition("-")
        numbers.extend(range(int(first), int(last or first) + 1))
    return numbers


def read_cluster(platform_path):
    """The first <cluster> of a SimGrid platform file: node names and cores per node."""
    cluster = ElementTree.parse(platform_path).getroot().find(".//cluster")
    if cluster is None:
        raise ValueError(f"{platform_path}: no <cluster> element; hostfile.py needs one")
    names = [
        f"{cluster.get('prefix', '')}{n}{cluster.get('suffix', '')}"
        for n in _expand_radical(cluster.get("radical"))
    ]
    return Cluster(names=names, cores=int(cluster.get("core", "1")))


def nodes_needed(cluster, src, dst):
    """Nodes a run of `src` + `dst` ranks occupies, each component on nodes of its own."""
    per_node = cluster.cores
    return -(-src // per_node) + -(-dst // per_node)


def hostfile_lines(cluster, src, dst):
    """One node name per rank: the source ranks, then the destination ranks from a fresh node."""
    needed = nodes_needed(cluster, src, dst)
    if needed > len(cluster.names):
        raise ValueError(
            f"{src} + {dst} ranks need {needed} nodes of {cluster.cores} cores; "
            f"the platform has {len(cluster.names)}"
        )
    first_dst_node = -(-src // cluster.cores)
    lines = [cluster.names[r // cluster.cores] for r in range(src)]
    lines += [cluster.names[first_dst_node + r // cluster.cores] for r in range(dst)]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("platform", help="SimGrid platform file with a <cluster>")
    parser.add_argument("--src", type=int, required=True, help="ranks of the source component")
    parser.add_argument(
        "--dst", type=int, default=0,
        help="ranks of the destination component, placed on the following nodes (default 0)",
    )
    args = parser.parse_args()
    try:
        lines = hostfile_lines(read_cluster(args.platform), args.src, args.dst)
    except ValueError as error:
        sys.exit(f"hostfile.py: {error}")
    sys.stdout.write("".join(line + "\n" for line in lines))


if __name__ == "__main__":
    main()
