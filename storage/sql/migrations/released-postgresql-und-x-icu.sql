-- The schema migrations released so far on PostgreSQL (case-insensitive text compared under und-x-icu), as
-- storage/sql/migrations.ts computed them from the registry of that release (migration 1: every table of
-- engine/sql/ddl.ts). Frozen: a later schema change is a later migration, never an edit here; the checksum
-- of each version is compared with the one recorded at every start. Each version starts with a line
-- "-- migration N"; each statement ends with a line holding a semicolon alone.

-- migration 1
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
-- migration 2
DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm unavailable: %', SQLERRM; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tag_name_trgm" ON "tag" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tag_slug_trgm" ON "tag" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tag_description_trgm" ON "tag" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_custom_field_name_trgm" ON "custom_field" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_custom_field_description_trgm" ON "custom_field" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_region_name_trgm" ON "region" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_region_slug_trgm" ON "region" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_region_description_trgm" ON "region" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_site_group_name_trgm" ON "site_group" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_site_group_slug_trgm" ON "site_group" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_site_group_description_trgm" ON "site_group" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_group_name_trgm" ON "tenant_group" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_group_slug_trgm" ON "tenant_group" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_group_description_trgm" ON "tenant_group" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_name_trgm" ON "tenant" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_slug_trgm" ON "tenant" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_description_trgm" ON "tenant" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_site_name_trgm" ON "site" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_site_slug_trgm" ON "site" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_site_facility_trgm" ON "site" USING gin ((lower(("facility") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_site_description_trgm" ON "site" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_location_name_trgm" ON "location" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_location_slug_trgm" ON "location" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_location_description_trgm" ON "location" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_role_name_trgm" ON "rack_role" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_role_slug_trgm" ON "rack_role" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_role_description_trgm" ON "rack_role" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_name_trgm" ON "rack" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_facility_id_trgm" ON "rack" USING gin ((lower(("facility_id") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_serial_trgm" ON "rack" USING gin ((lower(("serial") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_asset_tag_trgm" ON "rack" USING gin ((lower(("asset_tag") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_description_trgm" ON "rack" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_manufacturer_name_trgm" ON "manufacturer" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_manufacturer_slug_trgm" ON "manufacturer" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_manufacturer_description_trgm" ON "manufacturer" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_type_model_trgm" ON "device_type" USING gin ((lower(("model") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_type_slug_trgm" ON "device_type" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_type_part_number_trgm" ON "device_type" USING gin ((lower(("part_number") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_type_description_trgm" ON "device_type" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_role_name_trgm" ON "device_role" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_role_slug_trgm" ON "device_role" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_role_description_trgm" ON "device_role" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_platform_name_trgm" ON "platform" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_platform_slug_trgm" ON "platform" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_platform_description_trgm" ON "platform" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_type_name_trgm" ON "cluster_type" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_type_slug_trgm" ON "cluster_type" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_type_description_trgm" ON "cluster_type" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_group_name_trgm" ON "cluster_group" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_group_slug_trgm" ON "cluster_group" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_group_description_trgm" ON "cluster_group" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_name_trgm" ON "cluster" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_description_trgm" ON "cluster" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_name_trgm" ON "device" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_serial_trgm" ON "device" USING gin ((lower(("serial") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_asset_tag_trgm" ON "device" USING gin ((lower(("asset_tag") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_interface_name_trgm" ON "interface" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_interface_description_trgm" ON "interface" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_virtual_machine_name_trgm" ON "virtual_machine" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_virtual_machine_description_trgm" ON "virtual_machine" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_vminterface_name_trgm" ON "vminterface" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_vminterface_description_trgm" ON "vminterface" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_vlan_name_trgm" ON "vlan" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_vlan_description_trgm" ON "vlan" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_prefix_description_trgm" ON "prefix" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_ip_address_dns_name_trgm" ON "ip_address" USING gin ((lower(("dns_name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_ip_address_description_trgm" ON "ip_address" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_service_name_trgm" ON "service" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_service_description_trgm" ON "service" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_entity_entity_id_trgm" ON "entity" USING gin ((lower(("entity_id") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_entity_machine_name_trgm" ON "entity" USING gin ((lower(("machine_name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_entity_state_trgm" ON "entity" USING gin ((lower(("state") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_object_change_user_name_trgm" ON "object_change" USING gin ((lower(("user_name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_object_change_object_repr_trgm" ON "object_change" USING gin ((lower(("object_repr") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_webhook_name_trgm" ON "webhook" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_webhook_delivery_changed_object_type_trgm" ON "webhook_delivery" USING gin ((lower(("changed_object_type") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
-- migration 3
DROP INDEX IF EXISTS "ix_prefix_net_spgist"
;
CREATE INDEX IF NOT EXISTS "ix_prefix_net_spgist4" ON "prefix" USING spgist ("net_block" inet_ops) WHERE "family" = 4
;
CREATE INDEX IF NOT EXISTS "ix_prefix_net_spgist6" ON "prefix" USING spgist ("net_block" inet_ops) WHERE "family" = 6
;
DROP INDEX IF EXISTS "ix_ip_address_net_spgist"
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_net_spgist4" ON "ip_address" USING spgist ("net_block" inet_ops) WHERE "family" = 4
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_net_spgist6" ON "ip_address" USING spgist ("net_block" inet_ops) WHERE "family" = 6
;
-- migration 4
ALTER TABLE "tag" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "tag" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "custom_field" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "custom_field" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "region" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "region" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "site_group" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "site_group" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "tenant_group" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "tenant_group" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "tenant" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "tenant" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "site" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "site" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "location" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "location" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "rack_role" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "rack_role" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "rack" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "rack" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "manufacturer" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "manufacturer" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "device_type" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "device_type" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "device_role" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "device_role" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "platform" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "platform" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "cluster_type" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "cluster_type" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "cluster_group" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "cluster_group" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "cluster" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "cluster" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "device" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "interface" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "interface" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "virtual_machine" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "virtual_machine" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "vminterface" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "vminterface" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "vlan" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "vlan" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "prefix" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "prefix" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "ip_address" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "ip_address" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "service" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "service" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "webhook" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "webhook" SET "version" = 1 WHERE "version" IS NULL
;
ALTER TABLE "webhook_delivery" ADD COLUMN IF NOT EXISTS "version" bigint
;
UPDATE "webhook_delivery" SET "version" = 1 WHERE "version" IS NULL
;
-- migration 5
ALTER TABLE "history" ADD COLUMN IF NOT EXISTS "context_patch" json
;
-- migration 6
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
DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm unavailable: %', SQLERRM; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_manufacturer_name_trgm" ON "manufacturer" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_manufacturer_slug_trgm" ON "manufacturer" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_manufacturer_description_trgm" ON "manufacturer" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_type_model_trgm" ON "device_type" USING gin ((lower(("model") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_type_slug_trgm" ON "device_type" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_type_part_number_trgm" ON "device_type" USING gin ((lower(("part_number") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_type_description_trgm" ON "device_type" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_role_name_trgm" ON "device_role" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_role_slug_trgm" ON "device_role" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_device_role_description_trgm" ON "device_role" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_platform_name_trgm" ON "platform" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_platform_slug_trgm" ON "platform" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_platform_description_trgm" ON "platform" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "device_type" uuid
;
CREATE INDEX IF NOT EXISTS "ix_device_device_type" ON "device" ("device_type")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_device_type' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_device_type" FOREIGN KEY ("device_type") REFERENCES "device_type" ("id"); END IF; END $$
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "role" uuid
;
CREATE INDEX IF NOT EXISTS "ix_device_role" ON "device" ("role")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_role' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_role" FOREIGN KEY ("role") REFERENCES "device_role" ("id"); END IF; END $$
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "platform" uuid
;
CREATE INDEX IF NOT EXISTS "ix_device_platform" ON "device" ("platform")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_platform' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_platform" FOREIGN KEY ("platform") REFERENCES "platform" ("id"); END IF; END $$
;
-- migration 7
CREATE TABLE IF NOT EXISTS "alloc_gen" ("resource" varchar(32) NOT NULL PRIMARY KEY, "gen" bigint NOT NULL)
;
INSERT INTO "alloc_gen" ("resource", "gen") VALUES ('prefix', 0), ('ip_address', 0) ON CONFLICT DO NOTHING
;
CREATE TABLE IF NOT EXISTS "alloc_hint" ("resource" varchar(32) NOT NULL, "parent" varchar(40) NOT NULL, "length" integer NOT NULL, "next_at" varchar(32) NOT NULL, "gen" bigint NOT NULL, PRIMARY KEY ("resource", "parent", "length"))
;
-- migration 8
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
DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm unavailable: %', SQLERRM; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_object_change_user_name_trgm" ON "object_change" USING gin ((lower(("user_name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_object_change_object_repr_trgm" ON "object_change" USING gin ((lower(("object_repr") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
CREATE TABLE IF NOT EXISTS "change_counter" ("id" integer NOT NULL PRIMARY KEY, "seq" bigint NOT NULL)
;
INSERT INTO "change_counter" ("id", "seq") VALUES (1, 0) ON CONFLICT DO NOTHING
;
-- migration 9
CREATE TABLE IF NOT EXISTS "alloc_cover" ("block" varchar(40) COLLATE "C" NOT NULL PRIMARY KEY, "family" smallint NOT NULL, "mark" varchar(33) COLLATE "C" NOT NULL)
;
CREATE INDEX IF NOT EXISTS "ix_alloc_cover_mark" ON "alloc_cover" ("family", "mark")
;
-- migration 10
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
DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm unavailable: %', SQLERRM; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_webhook_name_trgm" ON "webhook" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_webhook_delivery_changed_object_type_trgm" ON "webhook_delivery" USING gin ((lower(("changed_object_type") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
-- migration 11
CREATE OR REPLACE FUNCTION netinv_change_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('netinv_changes', NEW."seq"::text); RETURN NEW; END $$
;
DROP TRIGGER IF EXISTS netinv_change_notify ON "change_counter"
;
CREATE TRIGGER netinv_change_notify AFTER UPDATE ON "change_counter" FOR EACH ROW EXECUTE FUNCTION netinv_change_notify()
;
-- migration 12
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
-- migration 13
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
DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm unavailable: %', SQLERRM; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_site_group_name_trgm" ON "site_group" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_site_group_slug_trgm" ON "site_group" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_site_group_description_trgm" ON "site_group" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_group_name_trgm" ON "tenant_group" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_group_slug_trgm" ON "tenant_group" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_group_description_trgm" ON "tenant_group" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_name_trgm" ON "tenant" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_slug_trgm" ON "tenant" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_tenant_description_trgm" ON "tenant" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
ALTER TABLE "site" ADD COLUMN IF NOT EXISTS "group" uuid
;
CREATE INDEX IF NOT EXISTS "ix_site_group" ON "site" ("group")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_site_group' AND conrelid = '"site"'::regclass) THEN ALTER TABLE "site" ADD CONSTRAINT "fk_site_group" FOREIGN KEY ("group") REFERENCES "site_group" ("id"); END IF; END $$
;
ALTER TABLE "site" ADD COLUMN IF NOT EXISTS "tenant" uuid
;
CREATE INDEX IF NOT EXISTS "ix_site_tenant" ON "site" ("tenant")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_site_tenant' AND conrelid = '"site"'::regclass) THEN ALTER TABLE "site" ADD CONSTRAINT "fk_site_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id"); END IF; END $$
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
DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm unavailable: %', SQLERRM; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_location_name_trgm" ON "location" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_location_slug_trgm" ON "location" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_location_description_trgm" ON "location" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_role_name_trgm" ON "rack_role" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_role_slug_trgm" ON "rack_role" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_role_description_trgm" ON "rack_role" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_name_trgm" ON "rack" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_facility_id_trgm" ON "rack" USING gin ((lower(("facility_id") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_serial_trgm" ON "rack" USING gin ((lower(("serial") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_asset_tag_trgm" ON "rack" USING gin ((lower(("asset_tag") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_rack_description_trgm" ON "rack" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_type_name_trgm" ON "cluster_type" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_type_slug_trgm" ON "cluster_type" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_type_description_trgm" ON "cluster_type" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_group_name_trgm" ON "cluster_group" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_group_slug_trgm" ON "cluster_group" USING gin ((lower(("slug") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_group_description_trgm" ON "cluster_group" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_name_trgm" ON "cluster" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_cluster_description_trgm" ON "cluster" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "tenant" uuid
;
CREATE INDEX IF NOT EXISTS "ix_device_tenant" ON "device" ("tenant")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_tenant' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id"); END IF; END $$
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "location" uuid
;
CREATE INDEX IF NOT EXISTS "ix_device_location" ON "device" ("location")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_location' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_location" FOREIGN KEY ("location") REFERENCES "location" ("id"); END IF; END $$
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "rack" uuid
;
CREATE INDEX IF NOT EXISTS "ix_device_rack" ON "device" ("rack")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_rack' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_rack" FOREIGN KEY ("rack") REFERENCES "rack" ("id"); END IF; END $$
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "position" bigint
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "cluster" uuid
;
CREATE INDEX IF NOT EXISTS "ix_device_cluster" ON "device" ("cluster")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_cluster' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_cluster" FOREIGN KEY ("cluster") REFERENCES "cluster" ("id"); END IF; END $$
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "primary_ip4" uuid
;
CREATE INDEX IF NOT EXISTS "ix_device_primary_ip4" ON "device" ("primary_ip4")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_primary_ip4' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_primary_ip4" FOREIGN KEY ("primary_ip4") REFERENCES "ip_address" ("id"); END IF; END $$
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "primary_ip6" uuid
;
CREATE INDEX IF NOT EXISTS "ix_device_primary_ip6" ON "device" ("primary_ip6")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_primary_ip6' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_primary_ip6" FOREIGN KEY ("primary_ip6") REFERENCES "ip_address" ("id"); END IF; END $$
;
ALTER TABLE "device" ADD COLUMN IF NOT EXISTS "primary_ip" uuid
;
CREATE INDEX IF NOT EXISTS "ix_device_primary_ip" ON "device" ("primary_ip")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_device_primary_ip' AND conrelid = '"device"'::regclass) THEN ALTER TABLE "device" ADD CONSTRAINT "fk_device_primary_ip" FOREIGN KEY ("primary_ip") REFERENCES "ip_address" ("id"); END IF; END $$
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
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_virtual_machine_primary_ip4' AND conrelid = '"virtual_machine"'::regclass) THEN ALTER TABLE "virtual_machine" ADD CONSTRAINT "fk_virtual_machine_primary_ip4" FOREIGN KEY ("primary_ip4") REFERENCES "ip_address" ("id"); END IF; END $$
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_virtual_machine_primary_ip6' AND conrelid = '"virtual_machine"'::regclass) THEN ALTER TABLE "virtual_machine" ADD CONSTRAINT "fk_virtual_machine_primary_ip6" FOREIGN KEY ("primary_ip6") REFERENCES "ip_address" ("id"); END IF; END $$
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_virtual_machine_primary_ip' AND conrelid = '"virtual_machine"'::regclass) THEN ALTER TABLE "virtual_machine" ADD CONSTRAINT "fk_virtual_machine_primary_ip" FOREIGN KEY ("primary_ip") REFERENCES "ip_address" ("id"); END IF; END $$
;
DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm unavailable: %', SQLERRM; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_virtual_machine_name_trgm" ON "virtual_machine" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_virtual_machine_description_trgm" ON "virtual_machine" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_vminterface_name_trgm" ON "vminterface" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_vminterface_description_trgm" ON "vminterface" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
ALTER TABLE "vlan" ADD COLUMN IF NOT EXISTS "tenant" uuid
;
CREATE INDEX IF NOT EXISTS "ix_vlan_tenant" ON "vlan" ("tenant")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_vlan_tenant' AND conrelid = '"vlan"'::regclass) THEN ALTER TABLE "vlan" ADD CONSTRAINT "fk_vlan_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id"); END IF; END $$
;
ALTER TABLE "prefix" ADD COLUMN IF NOT EXISTS "tenant" uuid
;
CREATE INDEX IF NOT EXISTS "ix_prefix_tenant" ON "prefix" ("tenant")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_prefix_tenant' AND conrelid = '"prefix"'::regclass) THEN ALTER TABLE "prefix" ADD CONSTRAINT "fk_prefix_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id"); END IF; END $$
;
ALTER TABLE "ip_address" ADD COLUMN IF NOT EXISTS "vminterface" uuid
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_vminterface" ON "ip_address" ("vminterface")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_ip_address_vminterface' AND conrelid = '"ip_address"'::regclass) THEN ALTER TABLE "ip_address" ADD CONSTRAINT "fk_ip_address_vminterface" FOREIGN KEY ("vminterface") REFERENCES "vminterface" ("id"); END IF; END $$
;
ALTER TABLE "ip_address" ADD COLUMN IF NOT EXISTS "tenant" uuid
;
CREATE INDEX IF NOT EXISTS "ix_ip_address_tenant" ON "ip_address" ("tenant")
;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'fk_ip_address_tenant' AND conrelid = '"ip_address"'::regclass) THEN ALTER TABLE "ip_address" ADD CONSTRAINT "fk_ip_address_tenant" FOREIGN KEY ("tenant") REFERENCES "tenant" ("id"); END IF; END $$
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
DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm unavailable: %', SQLERRM; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_service_name_trgm" ON "service" USING gin ((lower(("name") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN EXECUTE 'CREATE INDEX IF NOT EXISTS "ix_service_description_trgm" ON "service" USING gin ((lower(("description") COLLATE "und-x-icu")) gin_trgm_ops)'; END IF; END $$
;
-- migration 14
CREATE TABLE IF NOT EXISTS "ref_count" ("counted" varchar(64) NOT NULL, "ref" uuid NOT NULL, "n" bigint NOT NULL, PRIMARY KEY ("counted", "ref"))
;
CREATE TABLE IF NOT EXISTS "ref_count_delta" ("id" bigserial PRIMARY KEY, "counted" varchar(64) NOT NULL, "ref" uuid NOT NULL, "n" bigint NOT NULL)
;
CREATE INDEX IF NOT EXISTS ix_ref_count_delta_ref ON "ref_count_delta" ("counted", "ref")
;
CREATE OR REPLACE FUNCTION netinv_count_cluster_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'cluster.group' AS k, "group" AS r, 1 AS dn FROM new_rows WHERE "group" IS NOT NULL UNION ALL SELECT 'cluster.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'cluster.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'cluster.type' AS k, "type" AS r, 1 AS dn FROM new_rows WHERE "type" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_cluster_insert ON "cluster"
;
CREATE TRIGGER netinv_count_cluster_insert AFTER INSERT ON "cluster" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_cluster_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_cluster_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'cluster.group' AS k, "group" AS r, -1 AS dn FROM old_rows WHERE "group" IS NOT NULL UNION ALL SELECT 'cluster.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'cluster.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'cluster.type' AS k, "type" AS r, -1 AS dn FROM old_rows WHERE "type" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_cluster_delete ON "cluster"
;
CREATE TRIGGER netinv_count_cluster_delete AFTER DELETE ON "cluster" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_cluster_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_cluster_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'cluster.group' AS k, "group" AS r, 1 AS dn FROM new_rows WHERE "group" IS NOT NULL UNION ALL SELECT 'cluster.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'cluster.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'cluster.type' AS k, "type" AS r, 1 AS dn FROM new_rows WHERE "type" IS NOT NULL UNION ALL SELECT 'cluster.group' AS k, "group" AS r, -1 AS dn FROM old_rows WHERE "group" IS NOT NULL UNION ALL SELECT 'cluster.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'cluster.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'cluster.type' AS k, "type" AS r, -1 AS dn FROM old_rows WHERE "type" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_cluster_update ON "cluster"
;
CREATE TRIGGER netinv_count_cluster_update AFTER UPDATE ON "cluster" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_cluster_update()
;
CREATE OR REPLACE FUNCTION netinv_count_device_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'device.cluster' AS k, "cluster" AS r, 1 AS dn FROM new_rows WHERE "cluster" IS NOT NULL UNION ALL SELECT 'device.device_type' AS k, "device_type" AS r, 1 AS dn FROM new_rows WHERE "device_type" IS NOT NULL UNION ALL SELECT 'device.location' AS k, "location" AS r, 1 AS dn FROM new_rows WHERE "location" IS NOT NULL UNION ALL SELECT 'device.platform' AS k, "platform" AS r, 1 AS dn FROM new_rows WHERE "platform" IS NOT NULL UNION ALL SELECT 'device.rack' AS k, "rack" AS r, 1 AS dn FROM new_rows WHERE "rack" IS NOT NULL UNION ALL SELECT 'device.role' AS k, "role" AS r, 1 AS dn FROM new_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'device.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'device.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_device_insert ON "device"
;
CREATE TRIGGER netinv_count_device_insert AFTER INSERT ON "device" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_device_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_device_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'device.cluster' AS k, "cluster" AS r, -1 AS dn FROM old_rows WHERE "cluster" IS NOT NULL UNION ALL SELECT 'device.device_type' AS k, "device_type" AS r, -1 AS dn FROM old_rows WHERE "device_type" IS NOT NULL UNION ALL SELECT 'device.location' AS k, "location" AS r, -1 AS dn FROM old_rows WHERE "location" IS NOT NULL UNION ALL SELECT 'device.platform' AS k, "platform" AS r, -1 AS dn FROM old_rows WHERE "platform" IS NOT NULL UNION ALL SELECT 'device.rack' AS k, "rack" AS r, -1 AS dn FROM old_rows WHERE "rack" IS NOT NULL UNION ALL SELECT 'device.role' AS k, "role" AS r, -1 AS dn FROM old_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'device.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'device.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_device_delete ON "device"
;
CREATE TRIGGER netinv_count_device_delete AFTER DELETE ON "device" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_device_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_device_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'device.cluster' AS k, "cluster" AS r, 1 AS dn FROM new_rows WHERE "cluster" IS NOT NULL UNION ALL SELECT 'device.device_type' AS k, "device_type" AS r, 1 AS dn FROM new_rows WHERE "device_type" IS NOT NULL UNION ALL SELECT 'device.location' AS k, "location" AS r, 1 AS dn FROM new_rows WHERE "location" IS NOT NULL UNION ALL SELECT 'device.platform' AS k, "platform" AS r, 1 AS dn FROM new_rows WHERE "platform" IS NOT NULL UNION ALL SELECT 'device.rack' AS k, "rack" AS r, 1 AS dn FROM new_rows WHERE "rack" IS NOT NULL UNION ALL SELECT 'device.role' AS k, "role" AS r, 1 AS dn FROM new_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'device.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'device.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'device.cluster' AS k, "cluster" AS r, -1 AS dn FROM old_rows WHERE "cluster" IS NOT NULL UNION ALL SELECT 'device.device_type' AS k, "device_type" AS r, -1 AS dn FROM old_rows WHERE "device_type" IS NOT NULL UNION ALL SELECT 'device.location' AS k, "location" AS r, -1 AS dn FROM old_rows WHERE "location" IS NOT NULL UNION ALL SELECT 'device.platform' AS k, "platform" AS r, -1 AS dn FROM old_rows WHERE "platform" IS NOT NULL UNION ALL SELECT 'device.rack' AS k, "rack" AS r, -1 AS dn FROM old_rows WHERE "rack" IS NOT NULL UNION ALL SELECT 'device.role' AS k, "role" AS r, -1 AS dn FROM old_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'device.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'device.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_device_update ON "device"
;
CREATE TRIGGER netinv_count_device_update AFTER UPDATE ON "device" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_device_update()
;
CREATE OR REPLACE FUNCTION netinv_count_device_type_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'device_type.manufacturer' AS k, "manufacturer" AS r, 1 AS dn FROM new_rows WHERE "manufacturer" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_device_type_insert ON "device_type"
;
CREATE TRIGGER netinv_count_device_type_insert AFTER INSERT ON "device_type" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_device_type_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_device_type_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'device_type.manufacturer' AS k, "manufacturer" AS r, -1 AS dn FROM old_rows WHERE "manufacturer" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_device_type_delete ON "device_type"
;
CREATE TRIGGER netinv_count_device_type_delete AFTER DELETE ON "device_type" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_device_type_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_device_type_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'device_type.manufacturer' AS k, "manufacturer" AS r, 1 AS dn FROM new_rows WHERE "manufacturer" IS NOT NULL UNION ALL SELECT 'device_type.manufacturer' AS k, "manufacturer" AS r, -1 AS dn FROM old_rows WHERE "manufacturer" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_device_type_update ON "device_type"
;
CREATE TRIGGER netinv_count_device_type_update AFTER UPDATE ON "device_type" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_device_type_update()
;
CREATE OR REPLACE FUNCTION netinv_count_interface_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'interface.device' AS k, "device" AS r, 1 AS dn FROM new_rows WHERE "device" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_interface_insert ON "interface"
;
CREATE TRIGGER netinv_count_interface_insert AFTER INSERT ON "interface" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_interface_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_interface_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'interface.device' AS k, "device" AS r, -1 AS dn FROM old_rows WHERE "device" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_interface_delete ON "interface"
;
CREATE TRIGGER netinv_count_interface_delete AFTER DELETE ON "interface" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_interface_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_interface_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'interface.device' AS k, "device" AS r, 1 AS dn FROM new_rows WHERE "device" IS NOT NULL UNION ALL SELECT 'interface.device' AS k, "device" AS r, -1 AS dn FROM old_rows WHERE "device" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_interface_update ON "interface"
;
CREATE TRIGGER netinv_count_interface_update AFTER UPDATE ON "interface" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_interface_update()
;
CREATE OR REPLACE FUNCTION netinv_count_ip_address_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'ip_address.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_ip_address_insert ON "ip_address"
;
CREATE TRIGGER netinv_count_ip_address_insert AFTER INSERT ON "ip_address" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_ip_address_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_ip_address_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'ip_address.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_ip_address_delete ON "ip_address"
;
CREATE TRIGGER netinv_count_ip_address_delete AFTER DELETE ON "ip_address" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_ip_address_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_ip_address_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'ip_address.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'ip_address.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_ip_address_update ON "ip_address"
;
CREATE TRIGGER netinv_count_ip_address_update AFTER UPDATE ON "ip_address" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_ip_address_update()
;
CREATE OR REPLACE FUNCTION netinv_count_location_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'location.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'location.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_location_insert ON "location"
;
CREATE TRIGGER netinv_count_location_insert AFTER INSERT ON "location" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_location_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_location_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'location.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'location.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_location_delete ON "location"
;
CREATE TRIGGER netinv_count_location_delete AFTER DELETE ON "location" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_location_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_location_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'location.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'location.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'location.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'location.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_location_update ON "location"
;
CREATE TRIGGER netinv_count_location_update AFTER UPDATE ON "location" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_location_update()
;
CREATE OR REPLACE FUNCTION netinv_count_platform_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'platform.manufacturer' AS k, "manufacturer" AS r, 1 AS dn FROM new_rows WHERE "manufacturer" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_platform_insert ON "platform"
;
CREATE TRIGGER netinv_count_platform_insert AFTER INSERT ON "platform" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_platform_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_platform_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'platform.manufacturer' AS k, "manufacturer" AS r, -1 AS dn FROM old_rows WHERE "manufacturer" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_platform_delete ON "platform"
;
CREATE TRIGGER netinv_count_platform_delete AFTER DELETE ON "platform" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_platform_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_platform_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'platform.manufacturer' AS k, "manufacturer" AS r, 1 AS dn FROM new_rows WHERE "manufacturer" IS NOT NULL UNION ALL SELECT 'platform.manufacturer' AS k, "manufacturer" AS r, -1 AS dn FROM old_rows WHERE "manufacturer" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_platform_update ON "platform"
;
CREATE TRIGGER netinv_count_platform_update AFTER UPDATE ON "platform" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_platform_update()
;
CREATE OR REPLACE FUNCTION netinv_count_prefix_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'prefix.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'prefix.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_prefix_insert ON "prefix"
;
CREATE TRIGGER netinv_count_prefix_insert AFTER INSERT ON "prefix" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_prefix_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_prefix_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'prefix.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'prefix.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_prefix_delete ON "prefix"
;
CREATE TRIGGER netinv_count_prefix_delete AFTER DELETE ON "prefix" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_prefix_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_prefix_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'prefix.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'prefix.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'prefix.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'prefix.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_prefix_update ON "prefix"
;
CREATE TRIGGER netinv_count_prefix_update AFTER UPDATE ON "prefix" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_prefix_update()
;
CREATE OR REPLACE FUNCTION netinv_count_rack_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'rack.location' AS k, "location" AS r, 1 AS dn FROM new_rows WHERE "location" IS NOT NULL UNION ALL SELECT 'rack.role' AS k, "role" AS r, 1 AS dn FROM new_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'rack.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'rack.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_rack_insert ON "rack"
;
CREATE TRIGGER netinv_count_rack_insert AFTER INSERT ON "rack" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_rack_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_rack_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'rack.location' AS k, "location" AS r, -1 AS dn FROM old_rows WHERE "location" IS NOT NULL UNION ALL SELECT 'rack.role' AS k, "role" AS r, -1 AS dn FROM old_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'rack.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'rack.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_rack_delete ON "rack"
;
CREATE TRIGGER netinv_count_rack_delete AFTER DELETE ON "rack" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_rack_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_rack_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'rack.location' AS k, "location" AS r, 1 AS dn FROM new_rows WHERE "location" IS NOT NULL UNION ALL SELECT 'rack.role' AS k, "role" AS r, 1 AS dn FROM new_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'rack.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'rack.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'rack.location' AS k, "location" AS r, -1 AS dn FROM old_rows WHERE "location" IS NOT NULL UNION ALL SELECT 'rack.role' AS k, "role" AS r, -1 AS dn FROM old_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'rack.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'rack.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_rack_update ON "rack"
;
CREATE TRIGGER netinv_count_rack_update AFTER UPDATE ON "rack" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_rack_update()
;
CREATE OR REPLACE FUNCTION netinv_count_site_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'site.group' AS k, "group" AS r, 1 AS dn FROM new_rows WHERE "group" IS NOT NULL UNION ALL SELECT 'site.region' AS k, "region" AS r, 1 AS dn FROM new_rows WHERE "region" IS NOT NULL UNION ALL SELECT 'site.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_site_insert ON "site"
;
CREATE TRIGGER netinv_count_site_insert AFTER INSERT ON "site" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_site_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_site_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'site.group' AS k, "group" AS r, -1 AS dn FROM old_rows WHERE "group" IS NOT NULL UNION ALL SELECT 'site.region' AS k, "region" AS r, -1 AS dn FROM old_rows WHERE "region" IS NOT NULL UNION ALL SELECT 'site.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_site_delete ON "site"
;
CREATE TRIGGER netinv_count_site_delete AFTER DELETE ON "site" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_site_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_site_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'site.group' AS k, "group" AS r, 1 AS dn FROM new_rows WHERE "group" IS NOT NULL UNION ALL SELECT 'site.region' AS k, "region" AS r, 1 AS dn FROM new_rows WHERE "region" IS NOT NULL UNION ALL SELECT 'site.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'site.group' AS k, "group" AS r, -1 AS dn FROM old_rows WHERE "group" IS NOT NULL UNION ALL SELECT 'site.region' AS k, "region" AS r, -1 AS dn FROM old_rows WHERE "region" IS NOT NULL UNION ALL SELECT 'site.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_site_update ON "site"
;
CREATE TRIGGER netinv_count_site_update AFTER UPDATE ON "site" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_site_update()
;
CREATE OR REPLACE FUNCTION netinv_count_tenant_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'tenant.group' AS k, "group" AS r, 1 AS dn FROM new_rows WHERE "group" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_tenant_insert ON "tenant"
;
CREATE TRIGGER netinv_count_tenant_insert AFTER INSERT ON "tenant" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_tenant_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_tenant_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'tenant.group' AS k, "group" AS r, -1 AS dn FROM old_rows WHERE "group" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_tenant_delete ON "tenant"
;
CREATE TRIGGER netinv_count_tenant_delete AFTER DELETE ON "tenant" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_tenant_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_tenant_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'tenant.group' AS k, "group" AS r, 1 AS dn FROM new_rows WHERE "group" IS NOT NULL UNION ALL SELECT 'tenant.group' AS k, "group" AS r, -1 AS dn FROM old_rows WHERE "group" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_tenant_update ON "tenant"
;
CREATE TRIGGER netinv_count_tenant_update AFTER UPDATE ON "tenant" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_tenant_update()
;
CREATE OR REPLACE FUNCTION netinv_count_virtual_machine_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'virtual_machine.cluster' AS k, "cluster" AS r, 1 AS dn FROM new_rows WHERE "cluster" IS NOT NULL UNION ALL SELECT 'virtual_machine.platform' AS k, "platform" AS r, 1 AS dn FROM new_rows WHERE "platform" IS NOT NULL UNION ALL SELECT 'virtual_machine.role' AS k, "role" AS r, 1 AS dn FROM new_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'virtual_machine.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'virtual_machine.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_virtual_machine_insert ON "virtual_machine"
;
CREATE TRIGGER netinv_count_virtual_machine_insert AFTER INSERT ON "virtual_machine" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_virtual_machine_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_virtual_machine_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'virtual_machine.cluster' AS k, "cluster" AS r, -1 AS dn FROM old_rows WHERE "cluster" IS NOT NULL UNION ALL SELECT 'virtual_machine.platform' AS k, "platform" AS r, -1 AS dn FROM old_rows WHERE "platform" IS NOT NULL UNION ALL SELECT 'virtual_machine.role' AS k, "role" AS r, -1 AS dn FROM old_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'virtual_machine.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'virtual_machine.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_virtual_machine_delete ON "virtual_machine"
;
CREATE TRIGGER netinv_count_virtual_machine_delete AFTER DELETE ON "virtual_machine" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_virtual_machine_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_virtual_machine_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'virtual_machine.cluster' AS k, "cluster" AS r, 1 AS dn FROM new_rows WHERE "cluster" IS NOT NULL UNION ALL SELECT 'virtual_machine.platform' AS k, "platform" AS r, 1 AS dn FROM new_rows WHERE "platform" IS NOT NULL UNION ALL SELECT 'virtual_machine.role' AS k, "role" AS r, 1 AS dn FROM new_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'virtual_machine.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'virtual_machine.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'virtual_machine.cluster' AS k, "cluster" AS r, -1 AS dn FROM old_rows WHERE "cluster" IS NOT NULL UNION ALL SELECT 'virtual_machine.platform' AS k, "platform" AS r, -1 AS dn FROM old_rows WHERE "platform" IS NOT NULL UNION ALL SELECT 'virtual_machine.role' AS k, "role" AS r, -1 AS dn FROM old_rows WHERE "role" IS NOT NULL UNION ALL SELECT 'virtual_machine.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'virtual_machine.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_virtual_machine_update ON "virtual_machine"
;
CREATE TRIGGER netinv_count_virtual_machine_update AFTER UPDATE ON "virtual_machine" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_virtual_machine_update()
;
CREATE OR REPLACE FUNCTION netinv_count_vlan_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'vlan.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'vlan.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_vlan_insert ON "vlan"
;
CREATE TRIGGER netinv_count_vlan_insert AFTER INSERT ON "vlan" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_vlan_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_vlan_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'vlan.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'vlan.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_vlan_delete ON "vlan"
;
CREATE TRIGGER netinv_count_vlan_delete AFTER DELETE ON "vlan" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_vlan_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_vlan_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'vlan.site' AS k, "site" AS r, 1 AS dn FROM new_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'vlan.tenant' AS k, "tenant" AS r, 1 AS dn FROM new_rows WHERE "tenant" IS NOT NULL UNION ALL SELECT 'vlan.site' AS k, "site" AS r, -1 AS dn FROM old_rows WHERE "site" IS NOT NULL UNION ALL SELECT 'vlan.tenant' AS k, "tenant" AS r, -1 AS dn FROM old_rows WHERE "tenant" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_vlan_update ON "vlan"
;
CREATE TRIGGER netinv_count_vlan_update AFTER UPDATE ON "vlan" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_vlan_update()
;
CREATE OR REPLACE FUNCTION netinv_count_vminterface_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'vminterface.virtual_machine' AS k, "virtual_machine" AS r, 1 AS dn FROM new_rows WHERE "virtual_machine" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_vminterface_insert ON "vminterface"
;
CREATE TRIGGER netinv_count_vminterface_insert AFTER INSERT ON "vminterface" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_vminterface_insert()
;
CREATE OR REPLACE FUNCTION netinv_count_vminterface_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'vminterface.virtual_machine' AS k, "virtual_machine" AS r, -1 AS dn FROM old_rows WHERE "virtual_machine" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_vminterface_delete ON "vminterface"
;
CREATE TRIGGER netinv_count_vminterface_delete AFTER DELETE ON "vminterface" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_vminterface_delete()
;
CREATE OR REPLACE FUNCTION netinv_count_vminterface_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "ref_count_delta" ("counted", "ref", "n") SELECT k, r, SUM(dn) FROM (SELECT 'vminterface.virtual_machine' AS k, "virtual_machine" AS r, 1 AS dn FROM new_rows WHERE "virtual_machine" IS NOT NULL UNION ALL SELECT 'vminterface.virtual_machine' AS k, "virtual_machine" AS r, -1 AS dn FROM old_rows WHERE "virtual_machine" IS NOT NULL) x GROUP BY k, r HAVING SUM(dn) <> 0; RETURN NULL; END $$
;
DROP TRIGGER IF EXISTS netinv_count_vminterface_update ON "vminterface"
;
CREATE TRIGGER netinv_count_vminterface_update AFTER UPDATE ON "vminterface" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION netinv_count_vminterface_update()
;
DELETE FROM "ref_count_delta"
;
DELETE FROM "ref_count"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'cluster.group', "group", COUNT(*) FROM "cluster" WHERE "group" IS NOT NULL GROUP BY "group"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'cluster.site', "site", COUNT(*) FROM "cluster" WHERE "site" IS NOT NULL GROUP BY "site"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'cluster.tenant', "tenant", COUNT(*) FROM "cluster" WHERE "tenant" IS NOT NULL GROUP BY "tenant"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'cluster.type', "type", COUNT(*) FROM "cluster" WHERE "type" IS NOT NULL GROUP BY "type"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'device.cluster', "cluster", COUNT(*) FROM "device" WHERE "cluster" IS NOT NULL GROUP BY "cluster"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'device.device_type', "device_type", COUNT(*) FROM "device" WHERE "device_type" IS NOT NULL GROUP BY "device_type"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'device.location', "location", COUNT(*) FROM "device" WHERE "location" IS NOT NULL GROUP BY "location"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'device.platform', "platform", COUNT(*) FROM "device" WHERE "platform" IS NOT NULL GROUP BY "platform"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'device.rack', "rack", COUNT(*) FROM "device" WHERE "rack" IS NOT NULL GROUP BY "rack"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'device.role', "role", COUNT(*) FROM "device" WHERE "role" IS NOT NULL GROUP BY "role"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'device.site', "site", COUNT(*) FROM "device" WHERE "site" IS NOT NULL GROUP BY "site"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'device.tenant', "tenant", COUNT(*) FROM "device" WHERE "tenant" IS NOT NULL GROUP BY "tenant"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'device_type.manufacturer', "manufacturer", COUNT(*) FROM "device_type" WHERE "manufacturer" IS NOT NULL GROUP BY "manufacturer"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'interface.device', "device", COUNT(*) FROM "interface" WHERE "device" IS NOT NULL GROUP BY "device"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'ip_address.tenant', "tenant", COUNT(*) FROM "ip_address" WHERE "tenant" IS NOT NULL GROUP BY "tenant"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'location.site', "site", COUNT(*) FROM "location" WHERE "site" IS NOT NULL GROUP BY "site"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'location.tenant', "tenant", COUNT(*) FROM "location" WHERE "tenant" IS NOT NULL GROUP BY "tenant"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'platform.manufacturer', "manufacturer", COUNT(*) FROM "platform" WHERE "manufacturer" IS NOT NULL GROUP BY "manufacturer"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'prefix.site', "site", COUNT(*) FROM "prefix" WHERE "site" IS NOT NULL GROUP BY "site"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'prefix.tenant', "tenant", COUNT(*) FROM "prefix" WHERE "tenant" IS NOT NULL GROUP BY "tenant"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'rack.location', "location", COUNT(*) FROM "rack" WHERE "location" IS NOT NULL GROUP BY "location"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'rack.role', "role", COUNT(*) FROM "rack" WHERE "role" IS NOT NULL GROUP BY "role"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'rack.site', "site", COUNT(*) FROM "rack" WHERE "site" IS NOT NULL GROUP BY "site"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'rack.tenant', "tenant", COUNT(*) FROM "rack" WHERE "tenant" IS NOT NULL GROUP BY "tenant"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'site.group', "group", COUNT(*) FROM "site" WHERE "group" IS NOT NULL GROUP BY "group"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'site.region', "region", COUNT(*) FROM "site" WHERE "region" IS NOT NULL GROUP BY "region"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'site.tenant', "tenant", COUNT(*) FROM "site" WHERE "tenant" IS NOT NULL GROUP BY "tenant"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'tenant.group', "group", COUNT(*) FROM "tenant" WHERE "group" IS NOT NULL GROUP BY "group"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'virtual_machine.cluster', "cluster", COUNT(*) FROM "virtual_machine" WHERE "cluster" IS NOT NULL GROUP BY "cluster"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'virtual_machine.platform', "platform", COUNT(*) FROM "virtual_machine" WHERE "platform" IS NOT NULL GROUP BY "platform"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'virtual_machine.role', "role", COUNT(*) FROM "virtual_machine" WHERE "role" IS NOT NULL GROUP BY "role"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'virtual_machine.site', "site", COUNT(*) FROM "virtual_machine" WHERE "site" IS NOT NULL GROUP BY "site"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'virtual_machine.tenant', "tenant", COUNT(*) FROM "virtual_machine" WHERE "tenant" IS NOT NULL GROUP BY "tenant"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'vlan.site', "site", COUNT(*) FROM "vlan" WHERE "site" IS NOT NULL GROUP BY "site"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'vlan.tenant', "tenant", COUNT(*) FROM "vlan" WHERE "tenant" IS NOT NULL GROUP BY "tenant"
;
INSERT INTO "ref_count" ("counted", "ref", "n") SELECT 'vminterface.virtual_machine', "virtual_machine", COUNT(*) FROM "vminterface" WHERE "virtual_machine" IS NOT NULL GROUP BY "virtual_machine"
;
-- migration 15
ALTER TABLE "object_change" ADD COLUMN IF NOT EXISTS "webhook_delivery" text COLLATE "C"
;
ALTER TABLE "webhook_delivery" ADD COLUMN IF NOT EXISTS "chain" bigint
;
-- migration 16
ALTER TABLE "device" ALTER COLUMN "name" TYPE text COLLATE "C", ALTER COLUMN "name" DROP NOT NULL
;
ALTER TABLE "interface" ALTER COLUMN "type" TYPE text COLLATE "C", ALTER COLUMN "type" SET NOT NULL
;
