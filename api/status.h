// The outcome of an API call or a reconcile step, in the spirit of LevelDB's
// Status: cheap when OK, a code and a message otherwise.
#pragma once

#include <string>
#include <utility>

namespace mpsim {

class Status {
 public:
  enum class Code {
    kOk,
    kNotFound,
    kAlreadyExists,
    kConflict,     // stale resourceVersion (HTTP 409)
    kInvalid,      // rejected by validation (HTTP 422)
    kUnavailable,  // e.g. workload cluster not connected
    kTimeout,
    kThrottled,  // cloud or API rate limit
    kInternal,   // HTTP 500: a bug surfaced as an error (a recovered panic), or
                 // a storage error the API server passes on (etcd's size limit)
  };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status NotFound(std::string m) { return {Code::kNotFound, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {Code::kAlreadyExists, std::move(m)}; }
  static Status Conflict(std::string m) { return {Code::kConflict, std::move(m)}; }
  static Status Invalid(std::string m) { return {Code::kInvalid, std::move(m)}; }
  static Status Unavailable(std::string m) { return {Code::kUnavailable, std::move(m)}; }
  static Status Timeout(std::string m) { return {Code::kTimeout, std::move(m)}; }
  static Status Throttled(std::string m) { return {Code::kThrottled, std::move(m)}; }
  static Status Internal(std::string m) { return {Code::kInternal, std::move(m)}; }

  bool ok() const { return code_ == Code::kOk; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsConflict() const { return code_ == Code::kConflict; }
  bool IsAlreadyExists() const { return code_ == Code::kAlreadyExists; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Status(Code c, std::string m) : code_(c), message_(std::move(m)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace mpsim
