#include "controller/errors.h"

namespace mpsim {
namespace {

Status WithCode(Status::Code code, std::string msg) {
  switch (code) {
    case Status::Code::kOk:
      return Status::Ok();
    case Status::Code::kNotFound:
      return Status::NotFound(std::move(msg));
    case Status::Code::kAlreadyExists:
      return Status::AlreadyExists(std::move(msg));
    case Status::Code::kConflict:
      return Status::Conflict(std::move(msg));
    case Status::Code::kInvalid:
      return Status::Invalid(std::move(msg));
    case Status::Code::kUnavailable:
      return Status::Unavailable(std::move(msg));
    case Status::Code::kTimeout:
      return Status::Timeout(std::move(msg));
    case Status::Code::kThrottled:
      return Status::Throttled(std::move(msg));
    case Status::Code::kInternal:
      return Status::Internal(std::move(msg));
  }
  return Status::Internal(std::move(msg));
}

}  // namespace

Status Wrap(const Status& cause, const std::string& msg) {
  if (cause.ok()) return cause;
  return WithCode(cause.code(), msg + ": " + cause.message());
}

Status Aggregate(const std::vector<Status>& errs) {
  std::vector<const Status*> failed;
  for (const Status& s : errs) {
    if (!s.ok()) failed.push_back(&s);
  }
  if (failed.empty()) return Status::Ok();
  if (failed.size() == 1) return *failed[0];
  std::string msg = "[";
  for (size_t i = 0; i < failed.size(); ++i) {
    if (i > 0) msg += ", ";
    msg += failed[i]->message();
  }
  return WithCode(failed[0]->code(), msg + "]");
}

}  // namespace mpsim
