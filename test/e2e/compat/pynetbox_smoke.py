# Drives the API with pynetbox, unchanged, the way automation scripts do. Prints OK on success.
import sys
import pynetbox

url, token = sys.argv[1], sys.argv[2]
nb = pynetbox.api(url, token=token)
assert nb.version, "API-Version header"

region = nb.dcim.regions.create(name="Europe", slug="eu")
sites = nb.dcim.sites.create([
    {"name": f"site-{i:02d}", "slug": f"site-{i:02d}", "status": "active" if i % 2 else "planned", "region": region.id, "asn": 65000 + i}
    for i in range(60)
])
assert len(sites) == 60

# filter() with repeated parameters and lookups; count(); pagination through `next`.
planned = list(nb.dcim.sites.filter(status="planned", region="eu"))
assert len(planned) == 30, len(planned)
assert nb.dcim.sites.count(asn__gte=65050) == 10
assert len(list(nb.dcim.sites.all())) == 60
assert len(list(nb.dcim.sites.filter(name__isw=["site-0", "site-1"]))) == 20

# get(), save() of a change, choices() through OPTIONS.
s = nb.dcim.sites.get(slug="site-03")
s.description = "changed by pynetbox"
assert s.save()
assert nb.dcim.sites.get(s.id).description == "changed by pynetbox"
choices = nb.dcim.sites.choices()
assert any(c["value"] == "active" for c in choices["status"]), choices

# IPAM: create, network filters, delete.
p = nb.ipam.prefixes.create(prefix="10.1.0.0/16")
nb.ipam.prefixes.create(prefix="10.1.2.0/24")
inside = list(nb.ipam.prefixes.filter(network__net_contained="10.0.0.0/8"))
assert len(inside) == 2
assert p.delete()
assert nb.ipam.prefixes.count() == 1
print("OK")
