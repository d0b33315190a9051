/* ESLint rule "fuba/function-size": no function over `max` lines (CONTRIBUTING.md, Conventions),
   counted as scripts/check_sizes.py counts a Python function: from its first line to its last,
   blank lines and comments included. A function is named as a reader finds it: its own name, the
   variable, property or method it is assigned to, else "(anonymous)".

   `allow` lists temporary exceptions by file and name, each with the size it may not outgrow and
   why it is there; one that no longer applies (the function is gone or back under `max`) is
   reported too, so the list cannot outlive its reason. */

/** @param {any} node */
function nameOf(node) {
  if (node.id && node.id.name) return node.id.name;
  const parent = node.parent;
  if (!parent) return "(anonymous)";
  if (parent.type === "VariableDeclarator" && parent.id.type === "Identifier") return parent.id.name;
  if ((parent.type === "Property" || parent.type === "MethodDefinition") && parent.key) {
    return parent.key.name || parent.key.value || "(anonymous)";
  }
  if (parent.type === "AssignmentExpression" && parent.left.type === "MemberExpression" && parent.left.property) {
    return parent.left.property.name || "(anonymous)";
  }
  return "(anonymous)";
}

/** @type {import("eslint").Rule.RuleModule} */
const rule = {
  meta: {
    type: "suggestion",
    docs: { description: "no function over the project's line limit, with named, bounded exceptions" },
    schema: [{
      type: "object",
      properties: {
        max: { type: "integer", minimum: 1 },
        allow: { type: "array", items: { type: "object" } },
      },
      additionalProperties: false,
    }],
  },
  create(context) {
    const options = context.options[0] || {};
    const max = options.max || 80;
    const file = context.filename.replace(/\\/g, "/");
    const allowed = (options.allow || []).filter((a) => file.endsWith("/" + a.file));
    const seen = new Set();

    /** @param {any} node */
    function check(node) {
      const lines = node.loc.end.line - node.loc.start.line + 1;
      const name = nameOf(node);
      const exception = allowed.find((a) => a.name === name);
      if (exception) {
        seen.add(name);
        if (lines > exception.max) {
          context.report({ node, message: `${name} has ${lines} lines, over its temporary allowance of ${exception.max} (${exception.why})` });
        } else if (lines <= max) {
          context.report({ node, message: `${name} has ${lines} lines: remove its allowance from eslint.config.js` });
        }
        return;
      }
      if (lines > max) {
        context.report({ node, message: `${name} has ${lines} lines (at most ${max}): cut it into named steps` });
      }
    }

    return {
      FunctionDeclaration: check,
      FunctionExpression: check,
      ArrowFunctionExpression: check,
      "Program:exit"(program) {
        allowed.filter((a) => !seen.has(a.name)).forEach((a) => {
          context.report({ node: program, message: `${a.name} is gone: remove its allowance from eslint.config.js` });
        });
      },
    };
  },
};

export default { rules: { "function-size": rule } };
