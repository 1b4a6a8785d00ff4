// Outputs are written under a hidden temporary name and renamed; temporary
// files of writers that died are cleaned up, those of live writers are not.
#include "app/report/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;
using testing::Slurp;

fs::path FreshDir(const std::string& name) {
  fs::path d = testing::ScratchPath("atomic_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::set<std::string> Names(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

// The pid of a process that has exited and been reaped.
pid_t DeadPid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

TEST(WriteFileAtomic, ReplacesWholeAndLeavesNothingElse) {
  const fs::path dir = FreshDir("replace");
  std::string error;
  ASSERT_TRUE(WriteFileAtomic((dir / "sub" / "a.json").string(), "old", &error)) << error;
  ASSERT_TRUE(WriteFileAtomic((dir / "sub" / "a.json").string(), "new", &error)) << error;
  EXPECT_EQ(Slurp(dir / "sub" / "a.json"), "new");
  EXPECT_EQ(Names(dir / "sub"), std::set<std::string>{"a.json"});
}

TEST(WriteFileAtomic, RemovesTempFilesOfDeadWritersOnly) {
  const fs::path dir = FreshDir("stale");
  const std::string dead = ".a.json.tmp-" + std::to_string(DeadPid()) + "-0";
  const std::string alive = ".a.json.tmp-" + std::to_string(::getpid()) + "-999";
  const std::string other = ".b.json.tmp-" + std::to_string(DeadPid()) + "-0";
  for (const std::string& n : {dead, alive, other}) std::ofstream(dir / n) << "partial";
  std::string error;
  ASSERT_TRUE(WriteFileAtomic((dir / "a.json").string(), "{}", &error)) << error;
  EXPECT_EQ(Names(dir), (std::set<std::string>{"a.json", alive, other}));
}

TEST(WriteFileAtomic, UnwritableDirectoryIsAnError) {
  const fs::path dir = FreshDir("unwritable");
  std::ofstream(dir / "file") << "x";
  std::string error;
  EXPECT_FALSE(WriteFileAtomic((dir / "file" / "a.json").string(), "{}", &error));
  EXPECT_NE(error.find("cannot create directory"), std::string::npos) << error;
}

// A text handed over in pieces is the file once committed, and nothing
// shows at the target before: readers see the old file meanwhile.
TEST(AtomicFileWriter, PiecesBecomeTheFileOnCommitOnly) {
  const fs::path dir = FreshDir("pieces");
  const std::string path = (dir / "t.json").string();
  std::string error;
  ASSERT_TRUE(WriteFileAtomic(path, "old", &error)) << error;
  AtomicFileWriter out(path);
  out.Append("{\"a\":");
  out.Append("");
  out.Append("1}");
  EXPECT_EQ(Slurp(path), "old");
  ASSERT_TRUE(out.Commit(&error)) << error;
  EXPECT_EQ(Slurp(path), "{\"a\":1}");
  EXPECT_EQ(Names(dir), std::set<std::string>{"t.json"});
}

// A writer dropped before Commit (an error elsewhere) removes its temporary
// file and leaves the target as it was.
TEST(AtomicFileWriter, DroppedUncommittedLeavesNoTrace) {
  const fs::path dir = FreshDir("dropped");
  {
    AtomicFileWriter out((dir / "t.json").string());
    out.Append("partial");
  }
  EXPECT_TRUE(Names(dir).empty());
}

TEST(AtomicFileWriter, UnwritableDirectoryFailsAtCommit) {
  const fs::path dir = FreshDir("writer_unwritable");
  std::ofstream(dir / "file") << "x";
  AtomicFileWriter out((dir / "file" / "t.json").string());
  out.Append("ignored");
  std::string error;
  EXPECT_FALSE(out.Commit(&error));
  EXPECT_NE(error.find("cannot create directory"), std::string::npos) << error;
}

}  // namespace
}  // namespace mpsim
