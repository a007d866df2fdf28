// The trace JSON has the documented shape; checked on a tiny run by reading fields back.
#include <gtest/gtest.h>

#include <sstream>

#include "core/trace/trace_json.h"
#include "test_support.h"

namespace tilescope {
namespace {

TEST(TraceJson, Tiled_T2_dims_4x4x4_HasTheDocumentedFields) {
  const tilescope::Run run = testing::runEmulated(testing::tiledConfig(KernelId::Tiled, {4, 4, 4}, 2, 7), true);
  ASSERT_TRUE(run.trace);
  std::ostringstream out;
  JsonWriter json(out);
  writeTraceJson(json, *run.trace);
  const std::string s = out.str();
  const std::string header =
      "{\"kernel\":\"tiled\",\"dims\":{\"j\":4,\"k\":4,\"l\":4},\"tile\":2,\"block\":[2,2],\"grid\":[2,2],"
      "\"pad\":0,\"phases\":2,\"events\":[";
  EXPECT_EQ(s.rfind(header, 0), 0u) << s.substr(0, 200);
  // The first event is thread (0,0) of block (0,0) loading M(0,0) into Mds[0][0].
  EXPECT_NE(s.find("{\"op\":\"load_m\",\"block\":[0,0],\"thread\":[0,0],\"warp\":0,\"phase\":0,\"k\":null,\"src\":[0,0],"
                   "\"dst\":[0,0],\"in_bounds\":true,\"zero_fill\":false,\"line\":"),
            std::string::npos);
  // A shared read names its slot in src and its k step.
  EXPECT_NE(s.find("\"op\":\"read_n\",\"block\":[0,0],\"thread\":[1,0],\"warp\":0,\"phase\":0,\"k\":1,\"src\":[1,1],"
                   "\"dst\":null"),
            std::string::npos);
  // A barrier has neither.
  EXPECT_NE(s.find("\"op\":\"barrier\",\"block\":[0,0],\"thread\":[0,0],\"warp\":0,\"phase\":0,\"k\":null,\"src\":null,"
                   "\"dst\":null"),
            std::string::npos);
  std::size_t count = 0;
  for (std::size_t p = s.find("{\"op\""); p != std::string::npos; p = s.find("{\"op\"", p + 1)) ++count;
  EXPECT_EQ(count, run.trace->events.size());
  EXPECT_EQ(s.back(), '}');
}

TEST(JsonWriter, EscapesStringsAndWritesNonFiniteAsNull) {
  std::ostringstream out;
  JsonWriter json(out);
  json.beginObject().field("s", "a\"b\\c\n").field("nan", std::nan("")).field("x", 0.5).endObject();
  EXPECT_EQ(out.str(), "{\"s\":\"a\\\"b\\\\c\\n\",\"nan\":null,\"x\":0.5}");
}

}  // namespace
}  // namespace tilescope
