// Checksum repair for the DBX fuzz targets. Random mutations almost never keep a CRC valid, so a
// fuzzer feeding raw bytes only ever tests the checksum checks. These functions recompute the CRCs
// of whatever structure the (mutated) bytes describe, so that the fuzzer also reaches the decoders
// behind the checks: WriteBatch decoding, block parsing, index/meta/bloom decoding, decompression.
// They never read out of bounds themselves: anything that does not fit is left alone.
#pragma once

#include <string>

namespace dbx::fuzz {

/// Walks WAL records (crc | length | payload) by their length fields and rewrites each CRC.
void RepairWalChecksums(std::string* wal);

/// Rewrites the footer CRC of a segment file, the trailer CRC of its filter, index and meta blocks,
/// and the trailer CRC of every data block the (uncompressed) index names.
void RepairSegmentChecksums(std::string* segment);

}  // namespace dbx::fuzz
