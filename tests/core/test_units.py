"""interviewer.units: the documented difference between the strict (flag) and lenient (prose) readers."""

import pytest

from interviewer.units import Quantity, parse_flag, parse_quantity


def test_lowercase_gbps_is_refused_as_a_flag_but_read_as_bits_in_prose() -> None:
    # A flag must be unambiguous: "gb" could be gigabytes or gigabits, so say how to write it.
    with pytest.raises(ValueError, match=r"^ambiguous unit 'gb': write GB/s for bytes or Gb/s for bits$"):
        parse_flag("100gbps", "bandwidth")
    # Prose is read the way an engineer meant it: "gbps" is a link speed in bits, 100 Gb/s = 12.5 GB/s.
    assert parse_quantity("100 gbps") == Quantity(12.5e9, "bytes/s")
    assert parse_flag("100Gbps", "bandwidth") == 12.5e9


def test_b_after_a_number_is_refused_as_a_size_flag_but_read_as_billions_in_prose() -> None:
    with pytest.raises(ValueError, match=r"'B' could mean bytes or billions"):
        parse_flag("10B", "bytes")
    assert parse_flag("10B", "count") == 10e9
    assert parse_quantity("10B") == Quantity(10e9, "count")
