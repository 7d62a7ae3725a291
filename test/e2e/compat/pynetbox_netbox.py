# What NetBox automation does every day, through pynetbox unchanged: bulk updates and deletes on
# list URLs (Endpoint.update/delete, RecordSet.update/delete), fields=, devices, and IP addresses on
# interfaces through assigned_object_type / assigned_object_id. Prints OK on success.
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
# A device the NetBox way: manufacturer, device type, role and platform first, then the device
# with their ids (NetBox requires device_type and role; here they are optional).
site = nb.dcim.sites.create(name="dt-site", slug="dt-site")
juniper = nb.dcim.manufacturers.create(name="Juniper", slug="juniper")
arista = nb.dcim.manufacturers.create(name="Arista", slug="arista")
mx = nb.dcim.device_types.create(manufacturer=juniper.id, model="MX204", slug="mx204", part_number="MX204-HW-BASE")
eos_box = nb.dcim.device_types.create(manufacturer=arista.id, model="DCS-7050SX3", slug="dcs-7050sx3", u_height=1, is_full_depth=False)
assert mx.u_height == 1 and mx.is_full_depth is True and mx.manufacturer.slug == "juniper", dict(mx)
router = nb.dcim.device_roles.create(name="Router", slug="router", color="ff0000")
leaf = nb.dcim.device_roles.create(name="Leaf", slug="leaf", color="00ff00", vm_role=False)
assert router.vm_role is True and leaf.vm_role is False
junos = nb.dcim.platforms.create(name="Junos", slug="junos", manufacturer=juniper.id)
r1 = nb.dcim.devices.create(name="dt-r1", device_type=mx.id, role=router.id, site=site.id, platform=junos.id)
l1 = nb.dcim.devices.create(name="dt-l1", device_type=eos_box.id, role=leaf.id, site=site.id)
assert r1.device_type.id == mx.id and r1.device_type.model == "MX204" and r1.role.slug == "router" and r1.platform.slug == "junos", dict(r1)
assert l1.platform is None
# A device without type and role still works here (NetBox would refuse it).
nb.dcim.devices.create(name="dt-bare", site=site.id)

names = lambda rs: sorted(d.name for d in rs)
assert names(nb.dcim.devices.filter(role="router")) == ["dt-r1"]
assert names(nb.dcim.devices.filter(role_id=leaf.id)) == ["dt-l1"]
assert names(nb.dcim.devices.filter(device_type_id=mx.id)) == ["dt-r1"]
assert names(nb.dcim.devices.filter(device_type="dcs-7050sx3")) == ["dt-l1"]
assert names(nb.dcim.devices.filter(manufacturer="arista")) == ["dt-l1"]
assert names(nb.dcim.devices.filter(manufacturer_id=juniper.id)) == ["dt-r1"]
assert names(nb.dcim.devices.filter(platform="junos")) == ["dt-r1"]
assert names(nb.dcim.devices.filter(platform_id=junos.id)) == ["dt-r1"]
assert names(nb.dcim.devices.filter(site_id=site.id, role="null")) == ["dt-bare"]
assert [t.model for t in nb.dcim.device_types.filter(manufacturer="juniper")] == ["MX204"]
assert [p.slug for p in nb.dcim.platforms.filter(manufacturer_id=juniper.id)] == ["junos"]
# Changing and the delete rules: a type in use is protected, a platform's devices keep going without it.
r1.role = leaf.id
assert r1.save()
assert nb.dcim.devices.get(r1.id).role.slug == "leaf"
try:
    mx.delete()
    raise AssertionError("a device type in use was deleted")
except pynetbox.RequestError as e:
    assert e.req.status_code == 409
assert junos.delete()
assert nb.dcim.devices.get(r1.id).platform is None
# An address on an interface the NetBox way: assigned_object_type / assigned_object_id written,
# ip.assigned_object read (the interface, as pynetbox makes it a record).
eth0 = nb.dcim.interfaces.create(device=r1.id, name="eth0", type="1000base-t")
eth1 = nb.dcim.interfaces.create(device=r1.id, name="eth1", type="1000base-t")
ip = nb.ipam.ip_addresses.create(address="192.0.2.1/24", assigned_object_type="dcim.interface",
                                 assigned_object_id=eth0.id)
assert ip.assigned_object_type == "dcim.interface" and ip.assigned_object_id == eth0.id, dict(ip)
got = nb.ipam.ip_addresses.get(ip.id)
assert got.assigned_object.id == eth0.id and got.assigned_object.name == "eth0", dict(got)
assert [a.address for a in nb.ipam.ip_addresses.filter(assigned_object_id=eth0.id)] == ["192.0.2.1/24"]
assert [a.address for a in nb.ipam.ip_addresses.filter(assigned_object_type="dcim.interface")] == ["192.0.2.1/24"]
# save() sends only what changed: the id alone moves it to another interface (the type is kept).
got.assigned_object_id = eth1.id
assert got.save()
assert nb.ipam.ip_addresses.get(ip.id).assigned_object.name == "eth1"
got = nb.ipam.ip_addresses.get(ip.id)
got.assigned_object_type = None
got.assigned_object_id = None
assert got.save()
got = nb.ipam.ip_addresses.get(ip.id)
assert got.assigned_object is None and got.interface is None, dict(got)
print("OK")
