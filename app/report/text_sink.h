// The long outputs (trace.json, timeline.csv) are made in pieces and handed on
// a chunk at a time, so a run's tail never holds a whole file's text.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace mpsim {

// Receives the successive pieces of one text.
using TextSink = std::function<void(std::string_view)>;

// A sink that appends every piece to *text, for callers that want it whole.
inline TextSink AppendTo(std::string* text) {
  return [text](std::string_view piece) { *text += piece; };
}

// A buffer that hands its text to a sink whenever it holds a chunk. A text of
// 50 MB made whole is 50 MB of pages the kernel must zero on first touch, at
// 1-2 GB/s on the VMs measured (docs/PERFORMANCE.md); made in chunks, it
// reuses one megabyte.
class ChunkedText {
 public:
  static constexpr size_t kChunk = size_t{1} << 20;

  explicit ChunkedText(TextSink sink) : sink_(std::move(sink)) { text_.reserve(2 * kChunk); }
  ChunkedText(const ChunkedText&) = delete;
  ChunkedText& operator=(const ChunkedText&) = delete;

  // The text not yet handed on: append to it, then call EndPiece.
  std::string& text() { return text_; }
  // Hands the text on once it holds a chunk; call it after each piece (a
  // row, an event).
  void EndPiece() {
    if (text_.size() >= kChunk) Flush();
  }
  // Hands on whatever is left; call once at the end.
  void Flush() {
    if (!text_.empty()) sink_(text_);
    text_.clear();
  }

 private:
  TextSink sink_;
  std::string text_;
};

}  // namespace mpsim
