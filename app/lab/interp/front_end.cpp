// The front end's doors: compileSource (preprocess, parse, check every kernel) and
// instantiate (one kernel lowered with its template arguments bound).
#include <sstream>

#include "lab/interp/lower.h"

namespace tilescope::interp {

namespace {



// `const int TILE = 16;` at file scope: a constant, as C++ allows, usable as an array extent.
bool isFileConstant(const Unit& u, TSNode n) {
  bool constant = false;
  for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
    const std::string_view t = u.text(ts_node_child(n, i));
    if (t == "const" || t == "constexpr") constant = true;
    if (t == "__device__" || t == "__constant__" || t == "__shared__" || t == "extern") return false;
  }
  return constant;
}

struct TopLevel {
  TSNode function{};
  TSNode templateParameters{};
};

// The unit's kernels; anything at namespace scope but functions is refused (in `error`, the
// first such declaration's sentence; no kernels then).
std::vector<TopLevel> kernelsIn(const Unit& u, std::optional<Diagnostic>& error) {
  std::vector<TopLevel> kernels;
  const auto refuse = [&](TSNode n, std::string message) {
    error = Diagnostic{u.line(n), u.column(n), std::move(message)};
    return std::vector<TopLevel>{};
  };
  TSNode root = u.root();
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    TSNode n = ts_node_named_child(root, i);
    TopLevel t;
    if (is(n, "comment") || is(n, "preproc_call")) continue;
    if (is(n, "template_declaration")) {
      t.templateParameters = field(n, "parameters");
      for (uint32_t j = 0; j < ts_node_named_child_count(n); ++j)
        if (is(ts_node_named_child(n, j), "function_definition")) t.function = ts_node_named_child(n, j);
      if (ts_node_is_null(t.function))
        return refuse(n, "templates other than template <int ...> functions are outside the lab's CUDA subset");
    } else if (is(n, "function_definition")) {
      t.function = n;
    } else if (is(n, "declaration") && isFileConstant(u, n)) {
      continue;  // lowered into every kernel's outermost scope (Lowerer::lowerKernel)
    } else if (is(n, "declaration") && hasToken(u, n, "__constant__")) {
      return refuse(n,
                    "__constant__ variables are outside the lab's CUDA subset: a table of numbers can be a "
                    "const array inside the kernel");
    } else if (is(n, "declaration") && hasToken(u, n, "__device__")) {
      return refuse(n, "__device__ variables are outside the lab's CUDA subset");
    } else if (is(n, "declaration")) {
      return refuse(n,
                    "a variable at file scope is outside the lab's CUDA subset: only const or constexpr integer "
                    "constants stand outside the kernels");
    } else {
      return refuse(n, outsideSubset(typeOf(n)) + " are outside the lab's CUDA subset");
    }
    const bool global = hasToken(u, t.function, "__global__"), device = hasToken(u, t.function, "__device__");
    if (!global && !device) {
      const std::string name(u.text(nameOf(field(t.function, "declarator"))));
      return refuse(t.function,
                    "'" + name + "' is host code: " +
                        (name == "main" ? "the lab launches the kernel itself" : "a function the kernel calls needs __device__") +
                        " (host code is outside the lab: write __global__ and __device__ functions only)");
    }
    if (global) kernels.push_back(t);
    else if (!ts_node_is_null(t.templateParameters))
      return refuse(n, "__device__ templates are outside the lab's CUDA subset");
  }
  return kernels;
}

KernelSignature signatureOf(const Unit& u, const TopLevel& k) {
  KernelSignature s;
  s.name = std::string(u.text(nameOf(field(k.function, "declarator"))));
  s.line = u.line(k.function);
  if (!ts_node_is_null(k.templateParameters))
    for (uint32_t i = 0; i < ts_node_named_child_count(k.templateParameters); ++i)
      s.templateParameters.emplace_back(u.text(nameOf(field(ts_node_named_child(k.templateParameters, i), "declarator"))));
  TSNode params = field(field(k.function, "declarator"), "parameters");
  for (uint32_t i = 0; i < ts_node_named_child_count(params); ++i) {
    TSNode d = field(ts_node_named_child(params, i), "declarator");
    s.parameters.emplace_back(u.text(nameOf(d)));
    s.parameterIsPointer.push_back(is(d, "pointer_declarator"));
  }
  return s;
}

}  // namespace

Compiled compileSource(std::string_view text, const std::vector<Define>& defines) {
  Compiled c;
  auto unit = std::make_shared<Unit>();
  unit->pre = preprocess(text, defines);
  if (unit->pre.error) {
    c.error = unit->pre.error;
    return c;
  }
  if (auto e = parseUnit(*unit)) {
    c.error = e;
    return c;
  }
  const std::vector<TopLevel> kernels = kernelsIn(*unit, c.error);
  if (!c.error && kernels.empty()) c.error = Diagnostic{0, 0, "there is no __global__ function (a kernel) in this file"};
  for (std::size_t k = 0; k < kernels.size() && !c.error; ++k) {
    c.kernels.push_back(signatureOf(*unit, kernels[k]));
    // Checked once with every template parameter 16, so a mistake is told before any launch.
    Program check;
    Lowerer lowerer(*unit, check);
    lowerer.lowerKernel(kernels[k].function, kernels[k].templateParameters,
                        std::vector<long long>(c.kernels.back().templateParameters.size(), 16));
    c.error = lowerer.error();
  }
  if (c.error) {
    c.kernels.clear();
    return c;
  }
  c.unit = std::move(unit);
  return c;
}

Instance instantiate(const Unit& unit, std::string_view kernel, const std::vector<long long>& templateArguments) {
  Instance r;
  auto program = std::make_shared<Program>();
  for (const TopLevel& k : kernelsIn(unit, r.error)) {
    if (unit.text(nameOf(field(k.function, "declarator"))) != kernel) continue;
    Lowerer lowerer(unit, *program);
    lowerer.lowerKernel(k.function, k.templateParameters, templateArguments);
    r.error = lowerer.error();
    if (!r.error) r.program = std::move(program);
    return r;
  }
  if (!r.error) r.error = Diagnostic{0, 0, "there is no kernel named '" + std::string(kernel) + "'"};
  return r;
}

namespace {
std::string coordinates(const Dim3& d) { return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ")"; }
}  // namespace

Diagnostic describeOutOfBounds(const OutOfBoundsAccess& a) {
  return Diagnostic{a.line, 0,
                    std::string(a.write ? "a write to " : "a read of ") + a.array + "[" + std::to_string(a.index) +
                        "] is outside " + a.array + ", which has " + std::to_string(a.count) + " elements (0 to " +
                        std::to_string(a.count - 1) + "): block " + coordinates(a.block) + ", thread " +
                        coordinates(a.thread)};
}

Diagnostic describeDivergence(const BarrierDivergence& d) {
  const auto threads = [](int n) { return std::to_string(n) + (n == 1 ? " thread" : " threads"); };
  const int here = d.atLine > 0 ? d.atLine : d.arrived;
  std::string what = "block " + coordinates(d.block) + " never gets past this __syncthreads(): " + threads(here) +
                     (here == 1 ? " waits" : " wait") + " here";
  if (d.otherLine > 0 && d.atOtherLine > 0)
    what += ", " + threads(d.atOtherLine) + (d.atOtherLine == 1 ? " waits" : " wait") +
            " at the __syncthreads() of line " + std::to_string(d.otherLine);
  if (d.exited > 0) what += ", " + threads(d.exited) + " returned without reaching it";
  return Diagnostic{d.line, 0, what + ": every thread of a block must reach the same barrier"};
}

std::string formatDiagnostic(std::string_view source, const Diagnostic& d) {
  std::ostringstream out;
  if (d.line > 0) out << "line " << d.line << (d.column > 0 ? ", column " + std::to_string(d.column) : "") << ": ";
  out << d.message;
  if (d.line <= 0) return out.str();
  std::istringstream in{std::string(source)};
  std::string text;
  for (int n = 0; n < d.line && std::getline(in, text); ++n) {
  }
  const std::string number = std::to_string(d.line);
  out << "\n " << number << " | " << text;
  if (d.column > 0) {
    std::string pad;
    for (int i = 0; i + 1 < d.column && i < int(text.size()); ++i) pad += text[size_t(i)] == '\t' ? '\t' : ' ';
    out << "\n " << std::string(number.size(), ' ') << " | " << pad << '^';
  }
  return out.str();
}

}  // namespace tilescope::interp
