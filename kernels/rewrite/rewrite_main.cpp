// tilescope-rewrite IN OUT NAME: the build's declaration rewrite of one kernel file
// (kernels/rewrite/declaration_rewrite.h). OUT starts with a #line directive naming NAME, so
// compiler messages and __LINE__ point at the file as written.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "kernels/rewrite/declaration_rewrite.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: tilescope-rewrite IN OUT NAME\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "tilescope-rewrite: cannot read " << argv[1] << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto rewritten = tilescope::rewriteDeclarations(text.str(), argv[3]);
  if (!rewritten) {
    std::cerr << rewritten.error().message << "\n";
    return 2;
  }
  const std::string tmp = std::string(argv[2]) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << "#line 1 \"" << argv[3] << "\"\n" << rewritten->text;
    if (!out) {
      std::cerr << "tilescope-rewrite: cannot write " << tmp << "\n";
      return 2;
    }
  }
  if (std::rename(tmp.c_str(), argv[2]) != 0) {
    std::cerr << "tilescope-rewrite: cannot rename " << tmp << " to " << argv[2] << "\n";
    return 2;
  }
  return 0;
}
