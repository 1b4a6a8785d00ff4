// The long outputs reach their files a chunk at a time: the pieces join to
// the whole text, and none holds much more than a chunk.
#include "app/report/text_sink.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/report/outputs.h"
#include "sim/recorder.h"

namespace mpsim {
namespace {

TEST(ChunkedText, HandsOnAChunkOnceItHoldsOneAndTheRestAtFlush) {
  std::vector<std::string> pieces;
  ChunkedText out([&](std::string_view p) { pieces.emplace_back(p); });
  const std::string row(1000, 'x');
  for (int i = 0; i < 2100; ++i) {  // 2.1 MB in rows of 1,000 bytes
    out.text() += row;
    out.EndPiece();
  }
  EXPECT_EQ(pieces.size(), 2u);  // at 1,049,000 and 2,098,000 bytes
  out.Flush();
  out.Flush();  // nothing left: hands on nothing
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[0].size(), 1049000u);
  EXPECT_EQ(pieces[1].size(), 1049000u);
  EXPECT_EQ(pieces[2].size(), 2000u);
}

TEST(WriteTimelineCsv, ALongTimelineArrivesInChunksOfWholeRows) {
  Recorder rec;
  for (int i = 0; i < 40000; ++i) {  // about 2 MB of CSV
    rec.Change(i * kSecond, "Instance", "pool-instance-" + std::to_string(i), "state", "Pending",
               "Running");
  }
  std::vector<std::string> pieces;
  WriteTimelineCsv(rec, [&](std::string_view p) { pieces.emplace_back(p); });
  ASSERT_GE(pieces.size(), 2u);
  std::string joined;
  size_t lines = 0;
  for (const std::string& p : pieces) {
    EXPECT_LT(p.size(), ChunkedText::kChunk + 100);
    EXPECT_EQ(p.back(), '\n');  // a row is never split between pieces
    joined += p;
    for (char c : p) lines += c == '\n' ? 1 : 0;
  }
  EXPECT_EQ(lines, 40001u);  // the header and every row
  EXPECT_EQ(joined.substr(0, 40), "time_s,object_kind,object,field,from,to\n");
  EXPECT_NE(joined.find("\n39999.000000,Instance,pool-instance-39999,state,Pending,Running\n"),
            std::string::npos);
}

}  // namespace
}  // namespace mpsim
