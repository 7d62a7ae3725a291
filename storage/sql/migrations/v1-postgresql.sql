-- Schema migration 1 on PostgreSQL: the inventory schema of the first release, as the registry described it
-- then (engine/sql/ddl.ts ddlStatements). Frozen: later schema changes are later migrations, never edits here
-- (the checksum of these statements is compared with the one recorded at every start). Statements end with
-- a line holding a semicolon alone.

CREATE TABLE IF NOT EXISTS "tag" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "color" text COLLATE "C" NOT NULL,
  "description" text COLLATE "C",
  CONSTRAINT "pk_tag" PRIMARY KEY ("id"),
  CONSTRAINT "uq_tag_name" UNIQUE ("name"),
  CONSTRAINT "uq_tag_slug" UNIQUE ("slug")
)
;
CREATE TABLE IF NOT EXISTS "custom_field" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "label" text COLLATE "C",
  "type" text COLLATE "C" NOT NULL,
  "filter_logic" text COLLATE "C" NOT NULL,
  "content_types" json NOT NULL,
  "choices" json NOT NULL,
  "required" boolean NOT NULL,
  "default" json,
  "description" text COLLATE "C",
  CONSTRAINT "pk_custom_field" PRIMARY KEY ("id"),
  CONSTRAINT "uq_custom_field_name" UNIQUE ("name")
)
;
CREATE INDEX IF NOT EXISTS "ix_custom_field_type" ON "custom_field" ("type")
;
CREATE INDEX IF NOT EXISTS "ix_custom_field_filter_logic" ON "custom_field" ("filter_logic")
;
CREATE TABLE IF NOT EXISTS "region" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "parent" uuid,
  "description" text COLLATE "C",
  CONSTRAINT "pk_region" PRIMARY KEY ("id"),
  CONSTRAINT "uq_region_slug" UNIQUE ("slug"),
  CONSTRAINT "fk_region_parent" FOREIGN KEY ("parent") REFERENCES "region" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_region_name" ON "region" ("name")
;
CREATE INDEX IF NOT EXISTS "ix_region_parent" ON "region" ("parent")
;
CREATE TABLE IF NOT EXISTS "site_group" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "parent" uuid,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_site_group" PRIMARY KEY ("id"),
  CONSTRAINT "uq_site_group_slug" UNIQUE ("slug"),
  CONSTRAINT "fk_site_group_parent" FOREIGN KEY ("parent") REFERENCES "site_group" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_site_group_name" ON "site_group" ("name")
;
CREATE INDEX IF NOT EXISTS "ix_site_group_parent" ON "site_group" ("parent")
;
CREATE TABLE IF NOT EXISTS "site_group_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_site_group_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_site_group_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "site_group" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_site_group_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_site_group_tags_tag" ON "site_group_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "tenant_group" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "parent" uuid,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_tenant_group" PRIMARY KEY ("id"),
  CONSTRAINT "uq_tenant_group_slug" UNIQUE ("slug"),
  CONSTRAINT "fk_tenant_group_parent" FOREIGN KEY ("parent") REFERENCES "tenant_group" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_tenant_group_name" ON "tenant_group" ("name")
;
CREATE INDEX IF NOT EXISTS "ix_tenant_group_parent" ON "tenant_group" ("parent")
;
CREATE TABLE IF NOT EXISTS "tenant_group_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_tenant_group_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_tenant_group_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "tenant_group" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_tenant_group_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_tenant_group_tags_tag" ON "tenant_group_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "tenant" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "group" uuid,
  "description" text COLLATE "C",
  "comments" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_tenant" PRIMARY KEY ("id"),
  CONSTRAINT "uq_tenant_name" UNIQUE ("name"),
  CONSTRAINT "uq_tenant_slug" UNIQUE ("slug"),
  CONSTRAINT "fk_tenant_group" FOREIGN KEY ("group") REFERENCES "tenant_group" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_tenant_group" ON "tenant" ("group")
;
CREATE TABLE IF NOT EXISTS "tenant_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_tenant_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_tenant_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "tenant" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_tenant_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_tenant_tags_tag" ON "tenant_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "site" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "status" text COLLATE "C" NOT NULL,
  "region" uuid,
  "group" uuid,
  "tenant" uuid,
  "asn" bigint,
  "facility" text COLLATE "C",
  "physical_address" text COLLATE "C",
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_site" PRIMARY KEY ("id"),
  CONSTRAINT "uq_site_name" UNIQUE ("name"),
  CONSTRAINT "uq_site_slug" UNIQUE ("slug"),
  CONSTRAINT "fk_site_region" FOREIGN KEY ("region") REFERENCES "region" ("id"),
  CONSTRAINT "fk_site_group" FOREIGN KEY ("group") REFERENCES "site_group" ("id"),
  CONSTRAINT "fk_site_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_site_status" ON "site" ("status")
;
CREATE INDEX IF NOT EXISTS "ix_site_region" ON "site" ("region")
;
CREATE INDEX IF NOT EXISTS "ix_site_group" ON "site" ("group")
;
CREATE INDEX IF NOT EXISTS "ix_site_tenant" ON "site" ("tenant")
;
CREATE TABLE IF NOT EXISTS "site_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_site_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_site_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "site" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_site_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_site_tags_tag" ON "site_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "location" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "site" uuid NOT NULL,
  "parent" uuid,
  "status" text COLLATE "C" NOT NULL,
  "tenant" uuid,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_location" PRIMARY KEY ("id"),
  CONSTRAINT "uq_location_site_parent_name" UNIQUE ("site", "parent", "name"),
  CONSTRAINT "uq_location_site_parent_slug" UNIQUE ("site", "parent", "slug"),
  CONSTRAINT "fk_location_site" FOREIGN KEY ("site") REFERENCES "site" ("id"),
  CONSTRAINT "fk_location_parent" FOREIGN KEY ("parent") REFERENCES "location" ("id"),
  CONSTRAINT "fk_location_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_location_name" ON "location" ("name")
;
CREATE INDEX IF NOT EXISTS "ix_location_parent" ON "location" ("parent")
;
CREATE INDEX IF NOT EXISTS "ix_location_status" ON "location" ("status")
;
CREATE INDEX IF NOT EXISTS "ix_location_tenant" ON "location" ("tenant")
;
CREATE TABLE IF NOT EXISTS "location_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_location_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_location_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "location" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_location_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_location_tags_tag" ON "location_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "rack_role" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "color" text COLLATE "C" NOT NULL,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_rack_role" PRIMARY KEY ("id"),
  CONSTRAINT "uq_rack_role_name" UNIQUE ("name"),
  CONSTRAINT "uq_rack_role_slug" UNIQUE ("slug")
)
;
CREATE TABLE IF NOT EXISTS "rack_role_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_rack_role_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_rack_role_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "rack_role" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_rack_role_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_rack_role_tags_tag" ON "rack_role_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "rack" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "facility_id" text COLLATE "C",
  "site" uuid NOT NULL,
  "location" uuid,
  "tenant" uuid,
  "status" text COLLATE "C" NOT NULL,
  "role" uuid,
  "serial" text COLLATE "C",
  "asset_tag" text COLLATE "C",
  "u_height" bigint NOT NULL,
  "desc_units" boolean NOT NULL,
  "description" text COLLATE "C",
  "comments" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_rack" PRIMARY KEY ("id"),
  CONSTRAINT "uq_rack_asset_tag" UNIQUE ("asset_tag"),
  CONSTRAINT "uq_rack_location_name" UNIQUE ("location", "name"),
  CONSTRAINT "fk_rack_site" FOREIGN KEY ("site") REFERENCES "site" ("id"),
  CONSTRAINT "fk_rack_location" FOREIGN KEY ("location") REFERENCES "location" ("id"),
  CONSTRAINT "fk_rack_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id"),
  CONSTRAINT "fk_rack_role" FOREIGN KEY ("role") REFERENCES "rack_role" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_rack_name" ON "rack" ("name")
;
CREATE INDEX IF NOT EXISTS "ix_rack_site" ON "rack" ("site")
;
CREATE INDEX IF NOT EXISTS "ix_rack_tenant" ON "rack" ("tenant")
;
CREATE INDEX IF NOT EXISTS "ix_rack_status" ON "rack" ("status")
;
CREATE INDEX IF NOT EXISTS "ix_rack_role" ON "rack" ("role")
;
CREATE TABLE IF NOT EXISTS "rack_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_rack_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_rack_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "rack" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_rack_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_rack_tags_tag" ON "rack_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "manufacturer" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_manufacturer" PRIMARY KEY ("id"),
  CONSTRAINT "uq_manufacturer_name" UNIQUE ("name"),
  CONSTRAINT "uq_manufacturer_slug" UNIQUE ("slug")
)
;
CREATE TABLE IF NOT EXISTS "manufacturer_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_manufacturer_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_manufacturer_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "manufacturer" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_manufacturer_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_manufacturer_tags_tag" ON "manufacturer_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "device_type" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "manufacturer" uuid NOT NULL,
  "model" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "part_number" text COLLATE "C",
  "u_height" bigint NOT NULL,
  "is_full_depth" boolean NOT NULL,
  "description" text COLLATE "C",
  "comments" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_device_type" PRIMARY KEY ("id"),
  CONSTRAINT "uq_device_type_manufacturer_model" UNIQUE ("manufacturer", "model"),
  CONSTRAINT "uq_device_type_manufacturer_slug" UNIQUE ("manufacturer", "slug"),
  CONSTRAINT "fk_device_type_manufacturer" FOREIGN KEY ("manufacturer") REFERENCES "manufacturer" ("id")
)
;
CREATE TABLE IF NOT EXISTS "device_type_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_device_type_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_device_type_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "device_type" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_device_type_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_device_type_tags_tag" ON "device_type_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "device_role" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "color" text COLLATE "C" NOT NULL,
  "vm_role" boolean NOT NULL,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_device_role" PRIMARY KEY ("id"),
  CONSTRAINT "uq_device_role_name" UNIQUE ("name"),
  CONSTRAINT "uq_device_role_slug" UNIQUE ("slug")
)
;
CREATE TABLE IF NOT EXISTS "device_role_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_device_role_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_device_role_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "device_role" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_device_role_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_device_role_tags_tag" ON "device_role_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "platform" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "manufacturer" uuid,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_platform" PRIMARY KEY ("id"),
  CONSTRAINT "uq_platform_name" UNIQUE ("name"),
  CONSTRAINT "uq_platform_slug" UNIQUE ("slug"),
  CONSTRAINT "fk_platform_manufacturer" FOREIGN KEY ("manufacturer") REFERENCES "manufacturer" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_platform_manufacturer" ON "platform" ("manufacturer")
;
CREATE TABLE IF NOT EXISTS "platform_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_platform_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_platform_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "platform" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_platform_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_platform_tags_tag" ON "platform_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "cluster_type" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_cluster_type" PRIMARY KEY ("id"),
  CONSTRAINT "uq_cluster_type_name" UNIQUE ("name"),
  CONSTRAINT "uq_cluster_type_slug" UNIQUE ("slug")
)
;
CREATE TABLE IF NOT EXISTS "cluster_type_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_cluster_type_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_cluster_type_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "cluster_type" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_cluster_type_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_cluster_type_tags_tag" ON "cluster_type_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "cluster_group" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "slug" text COLLATE "C" NOT NULL,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_cluster_group" PRIMARY KEY ("id"),
  CONSTRAINT "uq_cluster_group_name" UNIQUE ("name"),
  CONSTRAINT "uq_cluster_group_slug" UNIQUE ("slug")
)
;
CREATE TABLE IF NOT EXISTS "cluster_group_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_cluster_group_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_cluster_group_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "cluster_group" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_cluster_group_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_cluster_group_tags_tag" ON "cluster_group_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "cluster" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "type" uuid NOT NULL,
  "group" uuid,
  "status" text COLLATE "C" NOT NULL,
  "tenant" uuid,
  "site" uuid,
  "description" text COLLATE "C",
  "comments" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_cluster" PRIMARY KEY ("id"),
  CONSTRAINT "uq_cluster_name_group" UNIQUE ("name", "group"),
  CONSTRAINT "uq_cluster_name_site" UNIQUE ("name", "site"),
  CONSTRAINT "fk_cluster_type" FOREIGN KEY ("type") REFERENCES "cluster_type" ("id"),
  CONSTRAINT "fk_cluster_group" FOREIGN KEY ("group") REFERENCES "cluster_group" ("id"),
  CONSTRAINT "fk_cluster_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id"),
  CONSTRAINT "fk_cluster_site" FOREIGN KEY ("site") REFERENCES "site" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_cluster_type" ON "cluster" ("type")
;
CREATE INDEX IF NOT EXISTS "ix_cluster_group" ON "cluster" ("group")
;
CREATE INDEX IF NOT EXISTS "ix_cluster_status" ON "cluster" ("status")
;
CREATE INDEX IF NOT EXISTS "ix_cluster_tenant" ON "cluster" ("tenant")
;
CREATE INDEX IF NOT EXISTS "ix_cluster_site" ON "cluster" ("site")
;
CREATE TABLE IF NOT EXISTS "cluster_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_cluster_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_cluster_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "cluster" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_cluster_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_cluster_tags_tag" ON "cluster_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "device" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "site" uuid NOT NULL,
  "device_type" uuid,
  "role" uuid,
  "platform" uuid,
  "tenant" uuid,
  "location" uuid,
  "rack" uuid,
  "position" bigint,
  "cluster" uuid,
  "primary_ip4" uuid,
  "primary_ip6" uuid,
  "primary_ip" uuid,
  "status" text COLLATE "C" NOT NULL,
  "serial" text COLLATE "C",
  "asset_tag" text COLLATE "C",
  "comments" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_device" PRIMARY KEY ("id"),
  CONSTRAINT "uq_device_asset_tag" UNIQUE ("asset_tag"),
  CONSTRAINT "uq_device_site_name" UNIQUE ("site", "name"),
  CONSTRAINT "fk_device_site" FOREIGN KEY ("site") REFERENCES "site" ("id"),
  CONSTRAINT "fk_device_device_type" FOREIGN KEY ("device_type") REFERENCES "device_type" ("id"),
  CONSTRAINT "fk_device_role" FOREIGN KEY ("role") REFERENCES "device_role" ("id"),
  CONSTRAINT "fk_device_platform" FOREIGN KEY ("platform") REFERENCES "platform" ("id"),
  CONSTRAINT "fk_device_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id"),
  CONSTRAINT "fk_device_location" FOREIGN KEY ("location") REFERENCES "location" ("id"),
  CONSTRAINT "fk_device_rack" FOREIGN KEY ("rack") REFERENCES "rack" ("id"),
  CONSTRAINT "fk_device_cluster" FOREIGN KEY ("cluster") REFERENCES "cluster" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_device_name" ON "device" ("name")
;
CREATE INDEX IF NOT EXISTS "ix_device_device_type" ON "device" ("device_type")
;
CREATE INDEX IF NOT EXISTS "ix_device_role" ON "device" ("role")
;
CREATE INDEX IF NOT EXISTS "ix_device_platform" ON "device" ("platform")
;
CREATE INDEX IF NOT EXISTS "ix_device_tenant" ON "device" ("tenant")
;
CREATE INDEX IF NOT EXISTS "ix_device_location" ON "device" ("location")
;
CREATE INDEX IF NOT EXISTS "ix_device_rack" ON "device" ("rack")
;
CREATE INDEX IF NOT EXISTS "ix_device_cluster" ON "device" ("cluster")
;
CREATE INDEX IF NOT EXISTS "ix_device_primary_ip4" ON "device" ("primary_ip4")
;
CREATE INDEX IF NOT EXISTS "ix_device_primary_ip6" ON "device" ("primary_ip6")
;
CREATE INDEX IF NOT EXISTS "ix_device_primary_ip" ON "device" ("primary_ip")
;
CREATE INDEX IF NOT EXISTS "ix_device_status" ON "device" ("status")
;
CREATE TABLE IF NOT EXISTS "device_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_device_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_device_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "device" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_device_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_device_tags_tag" ON "device_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "interface" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "device" uuid NOT NULL,
  "name" text COLLATE "C" NOT NULL,
  "type" text COLLATE "C" NOT NULL,
  "enabled" boolean NOT NULL,
  "mtu" bigint,
  "mac_address" text COLLATE "C",
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_interface" PRIMARY KEY ("id"),
  CONSTRAINT "uq_interface_device_name" UNIQUE ("device", "name"),
  CONSTRAINT "fk_interface_device" FOREIGN KEY ("device") REFERENCES "device" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_interface_name" ON "interface" ("name")
;
CREATE INDEX IF NOT EXISTS "ix_interface_type" ON "interface" ("type")
;
CREATE TABLE IF NOT EXISTS "interface_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_interface_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_interface_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "interface" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_interface_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_interface_tags_tag" ON "interface_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "virtual_machine" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "status" text COLLATE "C" NOT NULL,
  "site" uuid,
  "cluster" uuid,
  "role" uuid,
  "tenant" uuid,
  "platform" uuid,
  "primary_ip4" uuid,
  "primary_ip6" uuid,
  "primary_ip" uuid,
  "vcpus" bigint,
  "memory" bigint,
  "disk" bigint,
  "description" text COLLATE "C",
  "comments" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_virtual_machine" PRIMARY KEY ("id"),
  CONSTRAINT "uq_virtual_machine_cluster_name" UNIQUE ("cluster", "name"),
  CONSTRAINT "fk_virtual_machine_site" FOREIGN KEY ("site") REFERENCES "site" ("id"),
  CONSTRAINT "fk_virtual_machine_cluster" FOREIGN KEY ("cluster") REFERENCES "cluster" ("id"),
  CONSTRAINT "fk_virtual_machine_role" FOREIGN KEY ("role") REFERENCES "device_role" ("id"),
  CONSTRAINT "fk_virtual_machine_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id"),
  CONSTRAINT "fk_virtual_machine_platform" FOREIGN KEY ("platform") REFERENCES "platform" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_virtual_machine_name" ON "virtual_machine" ("name")
;
CREATE INDEX IF NOT EXISTS "ix_virtual_machine_status" ON "virtual_machine" ("status")
;
CREATE INDEX IF NOT EXISTS "ix_virtual_machine_site" ON "virtual_machine" ("site")
;
CREATE INDEX IF NOT EXISTS "ix_virtual_machine_role" ON "virtual_machine" ("role")
;
CREATE INDEX IF NOT EXISTS "ix_virtual_machine_tenant" ON "virtual_machine" ("tenant")
;
CREATE INDEX IF NOT EXISTS "ix_virtual_machine_platform" ON "virtual_machine" ("platform")
;
CREATE INDEX IF NOT EXISTS "ix_virtual_machine_primary_ip4" ON "virtual_machine" ("primary_ip4")
;
CREATE INDEX IF NOT EXISTS "ix_virtual_machine_primary_ip6" ON "virtual_machine" ("primary_ip6")
;
CREATE INDEX IF NOT EXISTS "ix_virtual_machine_primary_ip" ON "virtual_machine" ("primary_ip")
;
CREATE TABLE IF NOT EXISTS "virtual_machine_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_virtual_machine_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_virtual_machine_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "virtual_machine" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_virtual_machine_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_virtual_machine_tags_tag" ON "virtual_machine_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "vminterface" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "virtual_machine" uuid NOT NULL,
  "name" text COLLATE "C" NOT NULL,
  "enabled" boolean NOT NULL,
  "mtu" bigint,
  "mac_address" text COLLATE "C",
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_vminterface" PRIMARY KEY ("id"),
  CONSTRAINT "uq_vminterface_virtual_machine_name" UNIQUE ("virtual_machine", "name"),
  CONSTRAINT "fk_vminterface_virtual_machine" FOREIGN KEY ("virtual_machine") REFERENCES "virtual_machine" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_vminterface_name" ON "vminterface" ("name")
;
CREATE TABLE IF NOT EXISTS "vminterface_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_vminterface_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_vminterface_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "vminterface" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_vminterface_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_vminterface_tags_tag" ON "vminterface_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "vlan" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "vid" bigint NOT NULL,
  "name" text COLLATE "C" NOT NULL,
  "site" uuid,
  "status" text COLLATE "C" NOT NULL,
  "tenant" uuid,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_vlan" PRIMARY KEY ("id"),
  CONSTRAINT "fk_vlan_site" FOREIGN KEY ("site") REFERENCES "site" ("id"),
  CONSTRAINT "fk_vlan_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_vlan_name" ON "vlan" ("name")
;
CREATE INDEX IF NOT EXISTS "ix_vlan_site" ON "vlan" ("site")
;
CREATE INDEX IF NOT EXISTS "ix_vlan_status" ON "vlan" ("status")
;
CREATE INDEX IF NOT EXISTS "ix_vlan_tenant" ON "vlan" ("tenant")
;
CREATE TABLE IF NOT EXISTS "vlan_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_vlan_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_vlan_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "vlan" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_vlan_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_vlan_tags_tag" ON "vlan_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "prefix" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "prefix" text COLLATE "C" NOT NULL,
  "network" text COLLATE "C" NOT NULL,
  "broadcast" text COLLATE "C" NOT NULL,
  "prefix_length" bigint NOT NULL,
  "family" bigint NOT NULL,
  "status" text COLLATE "C" NOT NULL,
  "site" uuid,
  "vlan" uuid,
  "tenant" uuid,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  "net_block" cidr NOT NULL,
  CONSTRAINT "pk_prefix" PRIMARY KEY ("id"),
  CONSTRAINT "fk_prefix_site" FOREIGN KEY ("site") REFERENCES "site" ("id"),
  CONSTRAINT "fk_prefix_vlan" FOREIGN KEY ("vlan") REFERENCES "vlan" ("id"),
  CONSTRAINT "fk_prefix_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_prefix_status" ON "prefix" ("status")
;
CREATE INDEX IF NOT EXISTS "ix_prefix_site" ON "prefix" ("site")
;
CREATE INDEX IF NOT EXISTS "ix_prefix_vlan" ON "prefix" ("vlan")
;
CREATE INDEX IF NOT EXISTS "ix_prefix_tenant" ON "prefix" ("tenant")
;
CREATE INDEX IF NOT EXISTS "ix_prefix_net_spgist4" ON "prefix" USING spgist ("net_block" inet_ops) WHERE "family" = 4
;
CREATE INDEX IF NOT EXISTS "ix_prefix_net_spgist6" ON "prefix" USING spgist ("net_block" inet_ops) WHERE "family" = 6
;
CREATE INDEX IF NOT EXISTS "ix_prefix_net_block" ON "prefix" USING btree ("net_block", "id")
;
CREATE TABLE IF NOT EXISTS "prefix_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_prefix_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_prefix_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "prefix" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_prefix_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_prefix_tags_tag" ON "prefix_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "ip_address" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "address" text COLLATE "C" NOT NULL,
  "host" text COLLATE "C" NOT NULL,
  "broadcast" text COLLATE "C" NOT NULL,
  "prefix_length" bigint NOT NULL,
  "family" bigint NOT NULL,
  "status" text COLLATE "C" NOT NULL,
  "dns_name" text COLLATE "C",
  "interface" uuid,
  "vminterface" uuid,
  "tenant" uuid,
  "description" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  "net_block" inet NOT NULL,
  "net_host" inet NOT NULL,
  CONSTRAINT "pk_ip_address" PRIMARY KEY ("id"),
  CONSTRAINT "fk_ip_address_interface" FOREIGN KEY ("interface") REFERENCES "interface" ("id"),
  CONSTRAINT "fk_ip_address_vminterface" FOREIGN KEY ("vminterface") REFERENCES "vminterface" ("id"),
  CONSTRAINT "fk_ip_address_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_status" ON "ip_address" ("status")
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_interface" ON "ip_address" ("interface")
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_vminterface" ON "ip_address" ("vminterface")
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_tenant" ON "ip_address" ("tenant")
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_net_spgist4" ON "ip_address" USING spgist ("net_block" inet_ops) WHERE "family" = 4
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_net_spgist6" ON "ip_address" USING spgist ("net_block" inet_ops) WHERE "family" = 6
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_net_host" ON "ip_address" USING btree ("net_host", "prefix_length", "id")
;
CREATE TABLE IF NOT EXISTS "ip_address_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_ip_address_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_ip_address_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "ip_address" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_ip_address_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_tags_tag" ON "ip_address_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "service" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "device" uuid,
  "virtual_machine" uuid,
  "name" text COLLATE "C" NOT NULL,
  "protocol" text COLLATE "C" NOT NULL,
  "ports" json NOT NULL,
  "description" text COLLATE "C",
  "comments" text COLLATE "C",
  "tags" json NOT NULL,
  "custom_fields" json NOT NULL,
  CONSTRAINT "pk_service" PRIMARY KEY ("id"),
  CONSTRAINT "fk_service_device" FOREIGN KEY ("device") REFERENCES "device" ("id"),
  CONSTRAINT "fk_service_virtual_machine" FOREIGN KEY ("virtual_machine") REFERENCES "virtual_machine" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_service_device" ON "service" ("device")
;
CREATE INDEX IF NOT EXISTS "ix_service_virtual_machine" ON "service" ("virtual_machine")
;
CREATE INDEX IF NOT EXISTS "ix_service_name" ON "service" ("name")
;
CREATE INDEX IF NOT EXISTS "ix_service_protocol" ON "service" ("protocol")
;
CREATE TABLE IF NOT EXISTS "service_tags" (
  "obj_id" uuid NOT NULL,
  "tag_id" uuid NOT NULL,
  CONSTRAINT "pk_service_tags" PRIMARY KEY ("obj_id", "tag_id"),
  CONSTRAINT "fk_service_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "service" ("id") ON DELETE CASCADE,
  CONSTRAINT "fk_service_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tag" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_service_tags_tag" ON "service_tags" ("tag_id", "obj_id")
;
CREATE TABLE IF NOT EXISTS "token" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "key_hash" text COLLATE "C",
  "key_tail" text COLLATE "C",
  "permissions" json NOT NULL,
  "description" text COLLATE "C",
  CONSTRAINT "pk_token" PRIMARY KEY ("id"),
  CONSTRAINT "uq_token_key_hash" UNIQUE ("key_hash")
)
;
CREATE TABLE IF NOT EXISTS "machine" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "key" text COLLATE "C",
  "machine_name" text COLLATE "C" NOT NULL,
  "version" text COLLATE "C" NOT NULL,
  "definition" json NOT NULL,
  CONSTRAINT "pk_machine" PRIMARY KEY ("id"),
  CONSTRAINT "uq_machine_key" UNIQUE ("key"),
  CONSTRAINT "uq_machine_machine_name_version" UNIQUE ("machine_name", "version")
)
;
CREATE TABLE IF NOT EXISTS "entity" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "entity_id" text COLLATE "C" NOT NULL,
  "machine_name" text COLLATE "C" NOT NULL,
  "machine_version" text COLLATE "C" NOT NULL,
  "state" text COLLATE "C" NOT NULL,
  "context" json,
  "version" bigint,
  CONSTRAINT "pk_entity" PRIMARY KEY ("id"),
  CONSTRAINT "uq_entity_entity_id" UNIQUE ("entity_id")
)
;
CREATE TABLE IF NOT EXISTS "history" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "entity_id" text COLLATE "C" NOT NULL,
  "seq" bigint NOT NULL,
  "trigger" text COLLATE "C" NOT NULL,
  "source_state" text COLLATE "C",
  "target_state" text COLLATE "C" NOT NULL,
  "context" json,
  "context_patch" json,
  CONSTRAINT "pk_history" PRIMARY KEY ("id")
)
;
CREATE TABLE IF NOT EXISTS "idempotency" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "key" text COLLATE "C" NOT NULL,
  "request_hash" text COLLATE "C" NOT NULL,
  "status" bigint NOT NULL,
  "response" json,
  CONSTRAINT "pk_idempotency" PRIMARY KEY ("id"),
  CONSTRAINT "uq_idempotency_key" UNIQUE ("key")
)
;
CREATE TABLE IF NOT EXISTS "object_change" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "seq" bigint NOT NULL,
  "time" timestamptz(3),
  "user_name" text COLLATE "C",
  "request_id" text COLLATE "C",
  "action" text COLLATE "C",
  "changed_object_type" text COLLATE "C",
  "changed_object_id" text COLLATE "C",
  "object_repr" text COLLATE "C",
  "object_data" json,
  "prechange_data" json,
  "webhook_delivery" text COLLATE "C",
  CONSTRAINT "pk_object_change" PRIMARY KEY ("id"),
  CONSTRAINT "uq_object_change_seq" UNIQUE ("seq")
)
;
CREATE INDEX IF NOT EXISTS "ix_object_change_time" ON "object_change" ("time")
;
CREATE INDEX IF NOT EXISTS "ix_object_change_request_id" ON "object_change" ("request_id")
;
CREATE INDEX IF NOT EXISTS "ix_object_change_action" ON "object_change" ("action")
;
CREATE INDEX IF NOT EXISTS "ix_object_change_changed_object_type" ON "object_change" ("changed_object_type")
;
CREATE INDEX IF NOT EXISTS "ix_object_change_changed_object_id" ON "object_change" ("changed_object_id")
;
CREATE TABLE IF NOT EXISTS "webhook" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "name" text COLLATE "C" NOT NULL,
  "content_types" json NOT NULL,
  "type_create" boolean NOT NULL,
  "type_update" boolean NOT NULL,
  "type_delete" boolean NOT NULL,
  "payload_url" text COLLATE "C" NOT NULL,
  "enabled" boolean NOT NULL,
  "http_method" text COLLATE "C" NOT NULL,
  "http_content_type" text COLLATE "C" NOT NULL,
  "additional_headers" text COLLATE "C" NOT NULL,
  "body_template" text COLLATE "C" NOT NULL,
  "secret" text COLLATE "C" NOT NULL,
  "ssl_verification" boolean NOT NULL,
  CONSTRAINT "pk_webhook" PRIMARY KEY ("id"),
  CONSTRAINT "uq_webhook_name" UNIQUE ("name")
)
;
CREATE INDEX IF NOT EXISTS "ix_webhook_http_method" ON "webhook" ("http_method")
;
CREATE TABLE IF NOT EXISTS "webhook_delivery" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "webhook" uuid NOT NULL,
  "change" text COLLATE "C",
  "seq" bigint,
  "action" text COLLATE "C",
  "changed_object_type" text COLLATE "C",
  "changed_object_id" text COLLATE "C",
  "status" text COLLATE "C" NOT NULL,
  "attempts" bigint NOT NULL,
  "next_attempt_at" timestamptz(3),
  "last_attempt_at" timestamptz(3),
  "response_status" bigint,
  "error" text COLLATE "C" NOT NULL,
  "request_excerpt" text COLLATE "C" NOT NULL,
  "response_excerpt" text COLLATE "C" NOT NULL,
  "chain" bigint NOT NULL,
  CONSTRAINT "pk_webhook_delivery" PRIMARY KEY ("id"),
  CONSTRAINT "fk_webhook_delivery_webhook" FOREIGN KEY ("webhook") REFERENCES "webhook" ("id")
)
;
CREATE INDEX IF NOT EXISTS "ix_webhook_delivery_webhook" ON "webhook_delivery" ("webhook")
;
CREATE INDEX IF NOT EXISTS "ix_webhook_delivery_action" ON "webhook_delivery" ("action")
;
CREATE INDEX IF NOT EXISTS "ix_webhook_delivery_status" ON "webhook_delivery" ("status")
;
CREATE TABLE IF NOT EXISTS "webhook_cursor" (
  "id" uuid NOT NULL,
  "created" timestamptz(3) NOT NULL,
  "last_updated" timestamptz(3) NOT NULL,
  "version" bigint,
  "after_seq" bigint NOT NULL,
  CONSTRAINT "pk_webhook_cursor" PRIMARY KEY ("id")
)
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_primary_ip4' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_primary_ip4" FOREIGN KEY ("primary_ip4") REFERENCES "ip_address" ("id"); END IF; END $$
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_primary_ip6' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_primary_ip6" FOREIGN KEY ("primary_ip6") REFERENCES "ip_address" ("id"); END IF; END $$
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_primary_ip' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_primary_ip" FOREIGN KEY ("primary_ip") REFERENCES "ip_address" ("id"); END IF; END $$
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_virtual_machine_primary_ip4' AND conrelid = '"virtual_machine"'::regclass) THEN ALTER TABLE "virtual_machine" ADD CONSTRAINT "fk_virtual_machine_primary_ip4" FOREIGN KEY ("primary_ip4") REFERENCES "ip_address" ("id"); END IF; END $$
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_virtual_machine_primary_ip6' AND conrelid = '"virtual_machine"'::regclass) THEN ALTER TABLE "virtual_machine" ADD CONSTRAINT "fk_virtual_machine_primary_ip6" FOREIGN KEY ("primary_ip6") REFERENCES "ip_address" ("id"); END IF; END $$
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_virtual_machine_primary_ip' AND conrelid = '"virtual_machine"'::regclass) THEN ALTER TABLE "virtual_machine" ADD CONSTRAINT "fk_virtual_machine_primary_ip" FOREIGN KEY ("primary_ip") REFERENCES "ip_address" ("id"); END IF; END $$
;
