# IP allocation through pynetbox, unchanged: a prefix's available_prefixes and available_ips,
# listed and created (one object and a list), as NetBox scripts use them. Prints OK on success.
import sys
import pynetbox
from pynetbox.core.query import AllocationError

url, token = sys.argv[1], sys.argv[2]
nb = pynetbox.api(url, token=token)

parent = nb.ipam.prefixes.create(prefix="10.99.0.0/16", status="container")
nb.ipam.prefixes.create(prefix="10.99.0.0/24")
free = parent.available_prefixes.list()
assert [p["prefix"] if isinstance(p, dict) else p.prefix for p in free][:3] == ["10.99.1.0/24", "10.99.2.0/23", "10.99.4.0/22"], free

child = parent.available_prefixes.create({"prefix_length": 24, "description": "allocated", "status": "reserved"})
assert child.prefix == "10.99.1.0/24", child.prefix
got = nb.ipam.prefixes.get(child.id)
assert got.description == "allocated" and got.status.value == "reserved", got
several = parent.available_prefixes.create([{"prefix_length": 25}, {"prefix_length": 25}])
assert [p.prefix for p in several] == ["10.99.2.0/25", "10.99.2.128/25"], several

# No room: NetBox's 409, which pynetbox raises as an AllocationError.
small = nb.ipam.prefixes.create(prefix="10.98.0.0/30")
try:
    small.available_prefixes.create([{"prefix_length": 31}] * 3)
    raise AssertionError("expected a 409")
except AllocationError as e:
    assert e.req.status_code == 409, e.req.status_code
assert nb.ipam.prefixes.count(within="10.98.0.0/30") == 0

ips = child.available_ips.list()
assert len(ips) == 50, len(ips)
assert str(ips[0]) == "10.99.1.1/24" and ips[0].family == 4, ips[0]
one = child.available_ips.create()
assert one.address == "10.99.1.1/24", one.address
two = child.available_ips.create([{"description": "a"}, {"description": "b", "dns_name": "b.example.net"}])
assert [i.address for i in two] == ["10.99.1.2/24", "10.99.1.3/24"], two
assert nb.ipam.ip_addresses.get(two[1].id).dns_name == "b.example.net"
assert nb.ipam.ip_addresses.count(parent="10.99.1.0/24") == 3
assert str(child.available_ips.list()[0]) == "10.99.1.4/24"

v6 = nb.ipam.prefixes.create(prefix="2001:db8:99::/64")
assert str(v6.available_ips.list()[0]) == "2001:db8:99::1/64"
assert v6.available_prefixes.create({"prefix_length": 120}).prefix == "2001:db8:99::/120"
print("OK")
