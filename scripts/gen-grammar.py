#!/usr/bin/env python3
"""Writes syntaxes/alls.tmLanguage.json. The grammar is kept here as Python data so each rule can
carry a comment saying why; run `python3 scripts/gen-grammar.py` after editing and commit both."""
import json, os

NAME = r"[A-Za-z_$][A-Za-z0-9_\-./$]*"
# A layer name in a scope (`net/conv1`) or with `-`/`.` in it (allocator names, `1.6gf`).
LAYER = r"[A-Za-z_$][A-Za-z0-9_$]*(?:[-./][A-Za-z0-9_$]*)+"
SUBCOMMAND_CMDS = "model_optimization_config|pre_quantization_optimization|post_quantization_optimization"

def cap(*names):
    return {str(i + 1): {"name": n} for i, n in enumerate(names) if n}

grammar = {
    "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
    "name": "Hailo Model Script",
    "scopeName": "source.alls",
    "fileTypes": ["alls"],
    "patterns": [
        {"include": "#comment"},
        {"include": "#assignment"},
        {"include": "#call"},
        {"include": "#value"},
    ],
    "repository": {
        "comment": {
            "match": r"#.*$",
            "name": "comment.line.number-sign.alls",
        },
        # Targets before `=` at statement start: `a, b = cmd(`, `net/norm1 = normalization(`, `{} = defuse_block(`.
        # Dict targets (`{ a: [..] } = defuse_block(`) are matched by the generic value rules instead.
        "assignment": {
            "match": r"^\s*((?:" + NAME + r"|\{\})(?:\s*,\s*(?:" + NAME + r"|\{\}))*)\s*(=)(?=\s*[A-Za-z_][A-Za-z0-9_]*\s*[.(])",
            "captures": {
                "1": {"patterns": [
                    {"match": r"\{\}", "name": "punctuation.definition.set.empty.alls"},
                    {"match": r",", "name": "punctuation.separator.comma.alls"},
                    {"match": NAME, "name": "variable.other.definition.alls"},
                ]},
                "2": {"name": "keyword.operator.assignment.alls"},
            },
        },
        "call": {
            "patterns": [
                # Commands whose first positional is a bare sub-command / feature name.
                {
                    "begin": r"\b(" + SUBCOMMAND_CMDS + r")\s*(\()\s*([A-Za-z_][A-Za-z0-9_]*\b(?!\s*=))?",
                    "beginCaptures": cap("support.function.command.alls", "punctuation.section.arguments.begin.alls", "support.type.subcommand.alls"),
                    "end": r"\)",
                    "endCaptures": {"0": {"name": "punctuation.section.arguments.end.alls"}},
                    "patterns": [{"include": "#arguments"}],
                },
                # `context_0.place(...)`: a method on a name bound by `context(...)`.
                {
                    "begin": r"\b([A-Za-z_][A-Za-z0-9_]*)(\.)([A-Za-z_][A-Za-z0-9_]*)\s*(\()",
                    "beginCaptures": cap("variable.other.object.alls", "punctuation.accessor.alls", "support.function.command.alls", "punctuation.section.arguments.begin.alls"),
                    "end": r"\)",
                    "endCaptures": {"0": {"name": "punctuation.section.arguments.end.alls"}},
                    "patterns": [{"include": "#arguments"}],
                },
                {
                    "begin": r"\b([A-Za-z_][A-Za-z0-9_]*)\s*(\()",
                    "beginCaptures": cap("support.function.command.alls", "punctuation.section.arguments.begin.alls"),
                    "end": r"\)",
                    "endCaptures": {"0": {"name": "punctuation.section.arguments.end.alls"}},
                    "patterns": [{"include": "#arguments"}],
                },
            ]
        },
        "arguments": {
            "patterns": [
                {"include": "#comment"},
                {
                    "match": r"\b([A-Za-z_][A-Za-z0-9_]*)\s*(=)(?!=)",
                    "captures": cap("variable.parameter.keyword.alls", "keyword.operator.assignment.alls"),
                },
                {"include": "#value"},
            ]
        },
        "value": {
            "patterns": [
                {"include": "#comment"},
                {"include": "#string"},
                {"include": "#glob"},
                {"include": "#dict"},
                {"include": "#list"},
                {"include": "#duration"},
                {"include": "#number"},
                {"include": "#constant"},
                {"include": "#enum"},
                {"include": "#layer"},
                {"match": r",", "name": "punctuation.separator.comma.alls"},
                {"match": r":", "name": "punctuation.separator.key-value.alls"},
                {"match": NAME, "name": "variable.other.alls"},
            ]
        },
        "string": {
            "patterns": [
                {"match": r"\"[^\"\r\n]*\"?", "name": "string.quoted.double.alls"},
                {"match": r"'[^'\r\n]*'?", "name": "string.quoted.single.alls"},
            ]
        },
        # `{conv*}`, `{conv_feature_splitter[0-9]*_[2-3]}`: one raw token, no `:` inside (that is a dict).
        "glob": {
            "begin": r"\{(?=[^{}:\r\n]*\})",
            "beginCaptures": {"0": {"name": "punctuation.definition.glob.begin.alls"}},
            "end": r"\}",
            "endCaptures": {"0": {"name": "punctuation.definition.glob.end.alls"}},
            "contentName": "string.unquoted.glob.alls",
            "patterns": [
                {"match": r"[*?]", "name": "keyword.operator.wildcard.alls"},
                {"match": r"\[[^\]\r\n]*\]", "name": "constant.character.set.alls"},
            ],
        },
        "dict": {
            "begin": r"\{",
            "beginCaptures": {"0": {"name": "punctuation.definition.dict.begin.alls"}},
            "end": r"\}",
            "endCaptures": {"0": {"name": "punctuation.definition.dict.end.alls"}},
            "patterns": [{"include": "#value"}],
        },
        "list": {
            "begin": r"\[",
            "beginCaptures": {"0": {"name": "punctuation.definition.list.begin.alls"}},
            "end": r"\]",
            "endCaptures": {"0": {"name": "punctuation.definition.list.end.alls"}},
            "patterns": [{"include": "#value"}],
        },
        # `timeout=30m`, `2h`: the only names that start with a digit.
        "duration": {
            "match": r"(?<![A-Za-z0-9_$./\-])\d+(?:s|m|h)(?![A-Za-z0-9_$./\-])",
            "name": "constant.numeric.duration.alls",
        },
        "number": {
            "match": r"(?<![A-Za-z0-9_$./\-])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![A-Za-z0-9_$/])",
            "name": "constant.numeric.alls",
        },
        "constant": {
            "match": r"\b(?:True|False|true|false|None|null)\b(?![-./])",
            "name": "constant.language.alls",
        },
        # Enum words: precision modes (DFC 5.3.0 naming `a<bits>_w<bits>[_a<bits>]`), tri-state
        # policies, and ALL_CAPS enums (`SPATIAL`, `FULL_ROW`, `FEATURES`).
        "enum": {
            "patterns": [
                {"match": r"\b(?:a(?:8|16)_w(?:4|8|16)(?:_a(?:8|16)|_exp|_non_zero)?|native)\b(?![-./])", "name": "support.constant.enum.precision-mode.alls"},
                {"match": r"\b(?:enabled|disabled|allowed)\b(?![-./])", "name": "support.constant.enum.policy.alls"},
                {"match": r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b(?![-./])|\b(?:SPATIAL|FEATURES|NMS|DECONV)\b", "name": "support.constant.enum.alls"},
            ]
        },
        "layer": {
            "match": LAYER,
            "name": "entity.name.tag.layer.alls",
        },
    },
}

out = os.path.join(os.path.dirname(__file__), "..", "syntaxes", "alls.tmLanguage.json")
with open(out, "w") as f:
    json.dump(grammar, f, indent=2)
    f.write("\n")
print("wrote", os.path.normpath(out))
