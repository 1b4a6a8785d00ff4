// trace.json: the run as Chrome trace events (Perfetto), one process per pool
// and one track per instance, written straight to text without a JSON tree.
#pragma once

#include <string>

#include "app/report/text_sink.h"
#include "app/world.h"

namespace mpsim {

// The whole file. Keys of each object are in sorted order, as a JSON library
// with ordered maps would print them, so the bytes do not depend on the writer.
std::string TraceJson(const RunOutput& out);
// The same text, handed to `sink` a megabyte or so at a time.
void WriteTraceJson(const RunOutput& out, TextSink sink);

}  // namespace mpsim
