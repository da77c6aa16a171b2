#include "hardware/nccl_protocols.h"

namespace paraplan {
const char* ToString(NcclProtocol p) {
  switch (p) {
    case NcclProtocol::kLL:
      return "LL";
    case NcclProtocol::kLL128:
      return "LL128";
    case NcclProtocol::kSimple:
      return "Simple";
  }
  return "?";
}

const char* ToString(NcclAlgorithm a) {
  switch (a) {
    case NcclAlgorithm::kRing:
      return "ring";
    case NcclAlgorithm::kTree:
      return "tree";
    case NcclAlgorithm::kNvls:
      return "nvls";
    case NcclAlgorithm::kNvlsTree:
      return "nvls_tree";
    case NcclAlgorithm::kPat:
      return "pat";
  }
  return "?";
}

}  // namespace paraplan
