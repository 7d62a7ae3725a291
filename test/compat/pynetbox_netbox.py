# What NetBox automation does every day, through pynetbox unchanged: bulk updates and deletes on
# list URLs (Endpoint.update/delete, RecordSet.update/delete), fields=. Prints OK on success.
import sys
import pynetbox

url, token = sys.argv[1], sys.argv[2]
nb = pynetbox.api(url, token=token)

sites = nb.dcim.sites.create([{"name": f"bulk-{i}", "slug": f"bulk-{i}", "status": "planned"} for i in range(6)])

# Endpoint.update with dicts: one PATCH of a list, answered with the updated objects.
done = nb.dcim.sites.update([{"id": s.id, "description": f"d{i}"} for i, s in enumerate(sites[:3])])
assert sorted(s.description for s in done) == ["d0", "d1", "d2"], done

# RecordSet.update: every matching object changed in one request.
assert nb.dcim.sites.filter(slug=["bulk-3", "bulk-4"]).update(status="active")
assert nb.dcim.sites.count(status="active", slug__isw="bulk-") == 2

# All or none: one bad item changes nothing.
try:
    nb.dcim.sites.update([{"id": sites[0].id, "description": "x"}, {"id": sites[1].id, "status": "nonsense"}])
    raise AssertionError("a bad item was accepted")
except pynetbox.RequestError as e:
    assert e.req.status_code == 400
assert nb.dcim.sites.get(sites[0].id).description == "d0"

# Endpoint.delete with Records, RecordSet.delete.
assert nb.dcim.sites.delete(sites[:2])
assert nb.dcim.sites.filter(slug=["bulk-2", "bulk-3"]).delete()
assert [s.slug for s in nb.dcim.sites.filter(slug__isw="bulk-")] == ["bulk-4", "bulk-5"] or \
    sorted(s.slug for s in nb.dcim.sites.filter(slug__isw="bulk-")) == ["bulk-4", "bulk-5"]
# fields= narrows each object (NetBox 4); pynetbox passes it through as a parameter.
narrow = list(nb.dcim.sites.filter(slug__isw="bulk-", fields="name,status"))
assert narrow and all(set(dict(s).keys()) == {"id", "url", "name", "status"} for s in narrow), [dict(s) for s in narrow]
print("OK")
