-- The schema migrations of integer stores (ID_STYLE=integer) released so far on MySQL, as
-- storage/sql/migrations.ts computed them from the registry of that release (migration 16: every table of
-- that release at once, ids numbered by the database). Frozen: a later schema change is a later migration,
-- never an edit here; the checksum of each version is compared with the one recorded at every start. Each
-- version starts with a line "-- migration N"; each statement ends with a line holding a semicolon alone.

-- migration 16
CREATE TABLE IF NOT EXISTS `tag` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `color` varchar(6) NOT NULL,
  `description` varchar(200),
  CONSTRAINT `pk_tag` PRIMARY KEY (`id`),
  CONSTRAINT `uq_tag_name` UNIQUE (`name`),
  CONSTRAINT `uq_tag_slug` UNIQUE (`slug`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `custom_field` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(50) NOT NULL,
  `label` varchar(50),
  `type` varchar(12) NOT NULL,
  `filter_logic` varchar(8) NOT NULL,
  `content_types` longtext NOT NULL,
  `choices` longtext NOT NULL,
  `required` tinyint(1) NOT NULL,
  `default` longtext,
  `description` varchar(200),
  CONSTRAINT `pk_custom_field` PRIMARY KEY (`id`),
  CONSTRAINT `uq_custom_field_name` UNIQUE (`name`),
  CONSTRAINT `ck_custom_field_content_types` CHECK (json_valid(`content_types`)),
  CONSTRAINT `ck_custom_field_choices` CHECK (json_valid(`choices`)),
  CONSTRAINT `ck_custom_field_default` CHECK (json_valid(`default`)),
  KEY `ix_custom_field_type` (`type`),
  KEY `ix_custom_field_filter_logic` (`filter_logic`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `region` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `parent` bigint,
  `description` varchar(200),
  CONSTRAINT `pk_region` PRIMARY KEY (`id`),
  CONSTRAINT `uq_region_slug` UNIQUE (`slug`),
  CONSTRAINT `fk_region_parent` FOREIGN KEY (`parent`) REFERENCES `region` (`id`),
  KEY `ix_region_name` (`name`),
  KEY `ix_region_parent` (`parent`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `site_group` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `parent` bigint,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_site_group` PRIMARY KEY (`id`),
  CONSTRAINT `uq_site_group_slug` UNIQUE (`slug`),
  CONSTRAINT `fk_site_group_parent` FOREIGN KEY (`parent`) REFERENCES `site_group` (`id`),
  CONSTRAINT `ck_site_group_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_site_group_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_site_group_name` (`name`),
  KEY `ix_site_group_parent` (`parent`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `site_group_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_site_group_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_site_group_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `site_group` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_site_group_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_site_group_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `tenant_group` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `parent` bigint,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_tenant_group` PRIMARY KEY (`id`),
  CONSTRAINT `uq_tenant_group_slug` UNIQUE (`slug`),
  CONSTRAINT `fk_tenant_group_parent` FOREIGN KEY (`parent`) REFERENCES `tenant_group` (`id`),
  CONSTRAINT `ck_tenant_group_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_tenant_group_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_tenant_group_name` (`name`),
  KEY `ix_tenant_group_parent` (`parent`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `tenant_group_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_tenant_group_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_tenant_group_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `tenant_group` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_tenant_group_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_tenant_group_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `tenant` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `group` bigint,
  `description` varchar(200),
  `comments` varchar(2000),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_tenant` PRIMARY KEY (`id`),
  CONSTRAINT `uq_tenant_name` UNIQUE (`name`),
  CONSTRAINT `uq_tenant_slug` UNIQUE (`slug`),
  CONSTRAINT `fk_tenant_group` FOREIGN KEY (`group`) REFERENCES `tenant_group` (`id`),
  CONSTRAINT `ck_tenant_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_tenant_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_tenant_group` (`group`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `tenant_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_tenant_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_tenant_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `tenant` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_tenant_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_tenant_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `site` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `status` varchar(15) NOT NULL,
  `region` bigint,
  `group` bigint,
  `tenant` bigint,
  `asn` bigint,
  `facility` varchar(50),
  `physical_address` varchar(200),
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_site` PRIMARY KEY (`id`),
  CONSTRAINT `uq_site_name` UNIQUE (`name`),
  CONSTRAINT `uq_site_slug` UNIQUE (`slug`),
  CONSTRAINT `fk_site_region` FOREIGN KEY (`region`) REFERENCES `region` (`id`),
  CONSTRAINT `fk_site_group` FOREIGN KEY (`group`) REFERENCES `site_group` (`id`),
  CONSTRAINT `fk_site_tenant` FOREIGN KEY (`tenant`) REFERENCES `tenant` (`id`),
  CONSTRAINT `ck_site_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_site_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_site_status` (`status`),
  KEY `ix_site_region` (`region`),
  KEY `ix_site_group` (`group`),
  KEY `ix_site_tenant` (`tenant`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `site_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_site_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_site_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `site` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_site_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_site_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `location` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `site` bigint NOT NULL,
  `parent` bigint,
  `status` varchar(15) NOT NULL,
  `tenant` bigint,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_location` PRIMARY KEY (`id`),
  CONSTRAINT `uq_location_site_parent_name` UNIQUE (`site`, `parent`, `name`),
  CONSTRAINT `uq_location_site_parent_slug` UNIQUE (`site`, `parent`, `slug`),
  CONSTRAINT `fk_location_site` FOREIGN KEY (`site`) REFERENCES `site` (`id`),
  CONSTRAINT `fk_location_parent` FOREIGN KEY (`parent`) REFERENCES `location` (`id`),
  CONSTRAINT `fk_location_tenant` FOREIGN KEY (`tenant`) REFERENCES `tenant` (`id`),
  CONSTRAINT `ck_location_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_location_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_location_name` (`name`),
  KEY `ix_location_parent` (`parent`),
  KEY `ix_location_status` (`status`),
  KEY `ix_location_tenant` (`tenant`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `location_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_location_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_location_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `location` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_location_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_location_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `rack_role` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `color` varchar(6) NOT NULL,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_rack_role` PRIMARY KEY (`id`),
  CONSTRAINT `uq_rack_role_name` UNIQUE (`name`),
  CONSTRAINT `uq_rack_role_slug` UNIQUE (`slug`),
  CONSTRAINT `ck_rack_role_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_rack_role_custom_fields` CHECK (json_valid(`custom_fields`))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `rack_role_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_rack_role_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_rack_role_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `rack_role` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_rack_role_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_rack_role_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `rack` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `facility_id` varchar(50),
  `site` bigint NOT NULL,
  `location` bigint,
  `tenant` bigint,
  `status` varchar(10) NOT NULL,
  `role` bigint,
  `serial` varchar(50),
  `asset_tag` varchar(50),
  `u_height` bigint NOT NULL,
  `desc_units` tinyint(1) NOT NULL,
  `description` varchar(200),
  `comments` varchar(2000),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_rack` PRIMARY KEY (`id`),
  CONSTRAINT `uq_rack_asset_tag` UNIQUE (`asset_tag`),
  CONSTRAINT `uq_rack_location_name` UNIQUE (`location`, `name`),
  CONSTRAINT `fk_rack_site` FOREIGN KEY (`site`) REFERENCES `site` (`id`),
  CONSTRAINT `fk_rack_location` FOREIGN KEY (`location`) REFERENCES `location` (`id`),
  CONSTRAINT `fk_rack_tenant` FOREIGN KEY (`tenant`) REFERENCES `tenant` (`id`),
  CONSTRAINT `fk_rack_role` FOREIGN KEY (`role`) REFERENCES `rack_role` (`id`),
  CONSTRAINT `ck_rack_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_rack_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_rack_name` (`name`),
  KEY `ix_rack_site` (`site`),
  KEY `ix_rack_tenant` (`tenant`),
  KEY `ix_rack_status` (`status`),
  KEY `ix_rack_role` (`role`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `rack_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_rack_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_rack_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `rack` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_rack_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_rack_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `manufacturer` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_manufacturer` PRIMARY KEY (`id`),
  CONSTRAINT `uq_manufacturer_name` UNIQUE (`name`),
  CONSTRAINT `uq_manufacturer_slug` UNIQUE (`slug`),
  CONSTRAINT `ck_manufacturer_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_manufacturer_custom_fields` CHECK (json_valid(`custom_fields`))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `manufacturer_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_manufacturer_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_manufacturer_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `manufacturer` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_manufacturer_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_manufacturer_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `device_type` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `manufacturer` bigint NOT NULL,
  `model` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `part_number` varchar(50),
  `u_height` bigint NOT NULL,
  `is_full_depth` tinyint(1) NOT NULL,
  `description` varchar(200),
  `comments` varchar(2000),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_device_type` PRIMARY KEY (`id`),
  CONSTRAINT `uq_device_type_manufacturer_model` UNIQUE (`manufacturer`, `model`),
  CONSTRAINT `uq_device_type_manufacturer_slug` UNIQUE (`manufacturer`, `slug`),
  CONSTRAINT `fk_device_type_manufacturer` FOREIGN KEY (`manufacturer`) REFERENCES `manufacturer` (`id`),
  CONSTRAINT `ck_device_type_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_device_type_custom_fields` CHECK (json_valid(`custom_fields`))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `device_type_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_device_type_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_device_type_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `device_type` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_device_type_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_device_type_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `device_role` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `color` varchar(6) NOT NULL,
  `vm_role` tinyint(1) NOT NULL,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_device_role` PRIMARY KEY (`id`),
  CONSTRAINT `uq_device_role_name` UNIQUE (`name`),
  CONSTRAINT `uq_device_role_slug` UNIQUE (`slug`),
  CONSTRAINT `ck_device_role_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_device_role_custom_fields` CHECK (json_valid(`custom_fields`))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `device_role_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_device_role_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_device_role_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `device_role` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_device_role_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_device_role_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `platform` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `manufacturer` bigint,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_platform` PRIMARY KEY (`id`),
  CONSTRAINT `uq_platform_name` UNIQUE (`name`),
  CONSTRAINT `uq_platform_slug` UNIQUE (`slug`),
  CONSTRAINT `fk_platform_manufacturer` FOREIGN KEY (`manufacturer`) REFERENCES `manufacturer` (`id`),
  CONSTRAINT `ck_platform_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_platform_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_platform_manufacturer` (`manufacturer`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `platform_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_platform_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_platform_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `platform` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_platform_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_platform_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `cluster_type` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_cluster_type` PRIMARY KEY (`id`),
  CONSTRAINT `uq_cluster_type_name` UNIQUE (`name`),
  CONSTRAINT `uq_cluster_type_slug` UNIQUE (`slug`),
  CONSTRAINT `ck_cluster_type_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_cluster_type_custom_fields` CHECK (json_valid(`custom_fields`))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `cluster_type_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_cluster_type_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_cluster_type_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `cluster_type` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_cluster_type_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_cluster_type_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `cluster_group` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `slug` varchar(100) NOT NULL,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_cluster_group` PRIMARY KEY (`id`),
  CONSTRAINT `uq_cluster_group_name` UNIQUE (`name`),
  CONSTRAINT `uq_cluster_group_slug` UNIQUE (`slug`),
  CONSTRAINT `ck_cluster_group_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_cluster_group_custom_fields` CHECK (json_valid(`custom_fields`))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `cluster_group_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_cluster_group_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_cluster_group_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `cluster_group` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_cluster_group_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_cluster_group_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `cluster` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(100) NOT NULL,
  `type` bigint NOT NULL,
  `group` bigint,
  `status` varchar(15) NOT NULL,
  `tenant` bigint,
  `site` bigint,
  `description` varchar(200),
  `comments` varchar(2000),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_cluster` PRIMARY KEY (`id`),
  CONSTRAINT `uq_cluster_name_group` UNIQUE (`name`, `group`),
  CONSTRAINT `uq_cluster_name_site` UNIQUE (`name`, `site`),
  CONSTRAINT `fk_cluster_type` FOREIGN KEY (`type`) REFERENCES `cluster_type` (`id`),
  CONSTRAINT `fk_cluster_group` FOREIGN KEY (`group`) REFERENCES `cluster_group` (`id`),
  CONSTRAINT `fk_cluster_tenant` FOREIGN KEY (`tenant`) REFERENCES `tenant` (`id`),
  CONSTRAINT `fk_cluster_site` FOREIGN KEY (`site`) REFERENCES `site` (`id`),
  CONSTRAINT `ck_cluster_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_cluster_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_cluster_type` (`type`),
  KEY `ix_cluster_group` (`group`),
  KEY `ix_cluster_status` (`status`),
  KEY `ix_cluster_tenant` (`tenant`),
  KEY `ix_cluster_site` (`site`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `cluster_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_cluster_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_cluster_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `cluster` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_cluster_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_cluster_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `device` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(64),
  `site` bigint NOT NULL,
  `device_type` bigint,
  `role` bigint,
  `platform` bigint,
  `tenant` bigint,
  `location` bigint,
  `rack` bigint,
  `position` bigint,
  `cluster` bigint,
  `primary_ip4` bigint,
  `primary_ip6` bigint,
  `primary_ip` bigint,
  `status` varchar(15) NOT NULL,
  `serial` varchar(50),
  `asset_tag` varchar(50),
  `comments` varchar(2000),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_device` PRIMARY KEY (`id`),
  CONSTRAINT `uq_device_asset_tag` UNIQUE (`asset_tag`),
  CONSTRAINT `uq_device_site_name` UNIQUE (`site`, `name`),
  CONSTRAINT `fk_device_site` FOREIGN KEY (`site`) REFERENCES `site` (`id`),
  CONSTRAINT `fk_device_device_type` FOREIGN KEY (`device_type`) REFERENCES `device_type` (`id`),
  CONSTRAINT `fk_device_role` FOREIGN KEY (`role`) REFERENCES `device_role` (`id`),
  CONSTRAINT `fk_device_platform` FOREIGN KEY (`platform`) REFERENCES `platform` (`id`),
  CONSTRAINT `fk_device_tenant` FOREIGN KEY (`tenant`) REFERENCES `tenant` (`id`),
  CONSTRAINT `fk_device_location` FOREIGN KEY (`location`) REFERENCES `location` (`id`),
  CONSTRAINT `fk_device_rack` FOREIGN KEY (`rack`) REFERENCES `rack` (`id`),
  CONSTRAINT `fk_device_cluster` FOREIGN KEY (`cluster`) REFERENCES `cluster` (`id`),
  CONSTRAINT `ck_device_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_device_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_device_name` (`name`),
  KEY `ix_device_device_type` (`device_type`),
  KEY `ix_device_role` (`role`),
  KEY `ix_device_platform` (`platform`),
  KEY `ix_device_tenant` (`tenant`),
  KEY `ix_device_location` (`location`),
  KEY `ix_device_rack` (`rack`),
  KEY `ix_device_cluster` (`cluster`),
  KEY `ix_device_primary_ip4` (`primary_ip4`),
  KEY `ix_device_primary_ip6` (`primary_ip6`),
  KEY `ix_device_primary_ip` (`primary_ip`),
  KEY `ix_device_status` (`status`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `device_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_device_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_device_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `device` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_device_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_device_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `interface` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `device` bigint NOT NULL,
  `name` varchar(64) NOT NULL,
  `type` varchar(23) NOT NULL,
  `enabled` tinyint(1) NOT NULL,
  `mtu` bigint,
  `mac_address` varchar(17),
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_interface` PRIMARY KEY (`id`),
  CONSTRAINT `uq_interface_device_name` UNIQUE (`device`, `name`),
  CONSTRAINT `fk_interface_device` FOREIGN KEY (`device`) REFERENCES `device` (`id`),
  CONSTRAINT `ck_interface_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_interface_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_interface_name` (`name`),
  KEY `ix_interface_type` (`type`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `interface_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_interface_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_interface_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `interface` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_interface_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_interface_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `virtual_machine` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(64) NOT NULL,
  `status` varchar(15) NOT NULL,
  `site` bigint,
  `cluster` bigint,
  `role` bigint,
  `tenant` bigint,
  `platform` bigint,
  `primary_ip4` bigint,
  `primary_ip6` bigint,
  `primary_ip` bigint,
  `vcpus` bigint,
  `memory` bigint,
  `disk` bigint,
  `description` varchar(200),
  `comments` varchar(2000),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_virtual_machine` PRIMARY KEY (`id`),
  CONSTRAINT `uq_virtual_machine_cluster_name` UNIQUE (`cluster`, `name`),
  CONSTRAINT `fk_virtual_machine_site` FOREIGN KEY (`site`) REFERENCES `site` (`id`),
  CONSTRAINT `fk_virtual_machine_cluster` FOREIGN KEY (`cluster`) REFERENCES `cluster` (`id`),
  CONSTRAINT `fk_virtual_machine_role` FOREIGN KEY (`role`) REFERENCES `device_role` (`id`),
  CONSTRAINT `fk_virtual_machine_tenant` FOREIGN KEY (`tenant`) REFERENCES `tenant` (`id`),
  CONSTRAINT `fk_virtual_machine_platform` FOREIGN KEY (`platform`) REFERENCES `platform` (`id`),
  CONSTRAINT `ck_virtual_machine_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_virtual_machine_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_virtual_machine_name` (`name`),
  KEY `ix_virtual_machine_status` (`status`),
  KEY `ix_virtual_machine_site` (`site`),
  KEY `ix_virtual_machine_role` (`role`),
  KEY `ix_virtual_machine_tenant` (`tenant`),
  KEY `ix_virtual_machine_platform` (`platform`),
  KEY `ix_virtual_machine_primary_ip4` (`primary_ip4`),
  KEY `ix_virtual_machine_primary_ip6` (`primary_ip6`),
  KEY `ix_virtual_machine_primary_ip` (`primary_ip`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `virtual_machine_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_virtual_machine_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_virtual_machine_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `virtual_machine` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_virtual_machine_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_virtual_machine_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `vminterface` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `virtual_machine` bigint NOT NULL,
  `name` varchar(64) NOT NULL,
  `enabled` tinyint(1) NOT NULL,
  `mtu` bigint,
  `mac_address` varchar(17),
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_vminterface` PRIMARY KEY (`id`),
  CONSTRAINT `uq_vminterface_virtual_machine_name` UNIQUE (`virtual_machine`, `name`),
  CONSTRAINT `fk_vminterface_virtual_machine` FOREIGN KEY (`virtual_machine`) REFERENCES `virtual_machine` (`id`),
  CONSTRAINT `ck_vminterface_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_vminterface_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_vminterface_name` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `vminterface_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_vminterface_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_vminterface_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `vminterface` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_vminterface_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_vminterface_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `vlan` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `vid` bigint NOT NULL,
  `name` varchar(64) NOT NULL,
  `site` bigint,
  `status` varchar(10) NOT NULL,
  `tenant` bigint,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_vlan` PRIMARY KEY (`id`),
  CONSTRAINT `fk_vlan_site` FOREIGN KEY (`site`) REFERENCES `site` (`id`),
  CONSTRAINT `fk_vlan_tenant` FOREIGN KEY (`tenant`) REFERENCES `tenant` (`id`),
  CONSTRAINT `ck_vlan_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_vlan_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_vlan_name` (`name`),
  KEY `ix_vlan_site` (`site`),
  KEY `ix_vlan_status` (`status`),
  KEY `ix_vlan_tenant` (`tenant`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `vlan_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_vlan_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_vlan_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `vlan` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_vlan_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_vlan_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `prefix` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `prefix` varchar(64) NOT NULL,
  `network` varchar(64) NOT NULL,
  `broadcast` varchar(64) NOT NULL,
  `prefix_length` bigint NOT NULL,
  `family` bigint NOT NULL,
  `status` varchar(10) NOT NULL,
  `site` bigint,
  `vlan` bigint,
  `tenant` bigint,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  `net_lo` varbinary(16) NOT NULL,
  `net_hi` varbinary(16) NOT NULL,
  CONSTRAINT `pk_prefix` PRIMARY KEY (`id`),
  CONSTRAINT `fk_prefix_site` FOREIGN KEY (`site`) REFERENCES `site` (`id`),
  CONSTRAINT `fk_prefix_vlan` FOREIGN KEY (`vlan`) REFERENCES `vlan` (`id`),
  CONSTRAINT `fk_prefix_tenant` FOREIGN KEY (`tenant`) REFERENCES `tenant` (`id`),
  CONSTRAINT `ck_prefix_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_prefix_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_prefix_status` (`status`),
  KEY `ix_prefix_site` (`site`),
  KEY `ix_prefix_vlan` (`vlan`),
  KEY `ix_prefix_tenant` (`tenant`),
  KEY `ix_prefix_net_lo` (`family`, `net_lo`, `prefix_length`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `prefix_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_prefix_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_prefix_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `prefix` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_prefix_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_prefix_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `ip_address` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `address` varchar(64) NOT NULL,
  `host` varchar(64) NOT NULL,
  `broadcast` varchar(64) NOT NULL,
  `prefix_length` bigint NOT NULL,
  `family` bigint NOT NULL,
  `status` varchar(10) NOT NULL,
  `dns_name` varchar(255),
  `interface` bigint,
  `vminterface` bigint,
  `tenant` bigint,
  `description` varchar(200),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  `net_host` varbinary(16) NOT NULL,
  `net_lo` varbinary(16) NOT NULL,
  `net_hi` varbinary(16) NOT NULL,
  CONSTRAINT `pk_ip_address` PRIMARY KEY (`id`),
  CONSTRAINT `fk_ip_address_interface` FOREIGN KEY (`interface`) REFERENCES `interface` (`id`),
  CONSTRAINT `fk_ip_address_vminterface` FOREIGN KEY (`vminterface`) REFERENCES `vminterface` (`id`),
  CONSTRAINT `fk_ip_address_tenant` FOREIGN KEY (`tenant`) REFERENCES `tenant` (`id`),
  CONSTRAINT `ck_ip_address_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_ip_address_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_ip_address_status` (`status`),
  KEY `ix_ip_address_interface` (`interface`),
  KEY `ix_ip_address_vminterface` (`vminterface`),
  KEY `ix_ip_address_tenant` (`tenant`),
  KEY `ix_ip_address_net_lo` (`family`, `net_lo`, `prefix_length`),
  KEY `ix_ip_address_net_host` (`family`, `net_host`, `prefix_length`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `ip_address_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_ip_address_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_ip_address_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `ip_address` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_ip_address_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_ip_address_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `service` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `device` bigint,
  `virtual_machine` bigint,
  `name` varchar(100) NOT NULL,
  `protocol` varchar(4) NOT NULL,
  `ports` longtext NOT NULL,
  `description` varchar(200),
  `comments` varchar(2000),
  `tags` longtext NOT NULL,
  `custom_fields` longtext NOT NULL,
  CONSTRAINT `pk_service` PRIMARY KEY (`id`),
  CONSTRAINT `fk_service_device` FOREIGN KEY (`device`) REFERENCES `device` (`id`),
  CONSTRAINT `fk_service_virtual_machine` FOREIGN KEY (`virtual_machine`) REFERENCES `virtual_machine` (`id`),
  CONSTRAINT `ck_service_ports` CHECK (json_valid(`ports`)),
  CONSTRAINT `ck_service_tags` CHECK (json_valid(`tags`)),
  CONSTRAINT `ck_service_custom_fields` CHECK (json_valid(`custom_fields`)),
  KEY `ix_service_device` (`device`),
  KEY `ix_service_virtual_machine` (`virtual_machine`),
  KEY `ix_service_name` (`name`),
  KEY `ix_service_protocol` (`protocol`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `service_tags` (
  `obj_id` bigint NOT NULL,
  `tag_id` bigint NOT NULL,
  CONSTRAINT `pk_service_tags` PRIMARY KEY (`obj_id`, `tag_id`),
  CONSTRAINT `fk_service_tags_obj` FOREIGN KEY (`obj_id`) REFERENCES `service` (`id`) ON DELETE CASCADE,
  CONSTRAINT `fk_service_tags_tag` FOREIGN KEY (`tag_id`) REFERENCES `tag` (`id`),
  KEY `ix_service_tags_tag` (`tag_id`, `obj_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `token` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `key_hash` varchar(255),
  `key_tail` varchar(255),
  `permissions` longtext NOT NULL,
  `description` varchar(200),
  CONSTRAINT `pk_token` PRIMARY KEY (`id`),
  CONSTRAINT `uq_token_key_hash` UNIQUE (`key_hash`),
  CONSTRAINT `ck_token_permissions` CHECK (json_valid(`permissions`))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `machine` (
  `id` char(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `key` varchar(255),
  `machine_name` varchar(100) NOT NULL,
  `version` varchar(50) NOT NULL,
  `definition` longtext NOT NULL,
  CONSTRAINT `pk_machine` PRIMARY KEY (`id`),
  CONSTRAINT `uq_machine_key` UNIQUE (`key`),
  CONSTRAINT `uq_machine_machine_name_version` UNIQUE (`machine_name`, `version`),
  CONSTRAINT `ck_machine_definition` CHECK (json_valid(`definition`))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `entity` (
  `id` char(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `entity_id` varchar(128) NOT NULL,
  `machine_name` varchar(100) NOT NULL,
  `machine_version` varchar(50) NOT NULL,
  `state` varchar(100) NOT NULL,
  `context` longtext,
  `version` bigint,
  CONSTRAINT `pk_entity` PRIMARY KEY (`id`),
  CONSTRAINT `uq_entity_entity_id` UNIQUE (`entity_id`),
  CONSTRAINT `ck_entity_context` CHECK (json_valid(`context`))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `history` (
  `id` char(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `entity_id` varchar(128) NOT NULL,
  `seq` bigint NOT NULL,
  `trigger` varchar(100) NOT NULL,
  `source_state` varchar(100),
  `target_state` varchar(100) NOT NULL,
  `context` longtext,
  `context_patch` longtext,
  CONSTRAINT `pk_history` PRIMARY KEY (`id`),
  CONSTRAINT `ck_history_context` CHECK (json_valid(`context`)),
  CONSTRAINT `ck_history_context_patch` CHECK (json_valid(`context_patch`))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `idempotency` (
  `id` char(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `key` varchar(300) NOT NULL,
  `request_hash` varchar(64) NOT NULL,
  `status` bigint NOT NULL,
  `response` longtext,
  CONSTRAINT `pk_idempotency` PRIMARY KEY (`id`),
  CONSTRAINT `uq_idempotency_key` UNIQUE (`key`),
  CONSTRAINT `ck_idempotency_response` CHECK (json_valid(`response`))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `object_change` (
  `id` char(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `seq` bigint NOT NULL,
  `time` datetime(3),
  `user_name` varchar(200),
  `request_id` varchar(128),
  `action` varchar(6),
  `changed_object_type` varchar(100),
  `changed_object_id` varchar(128),
  `object_repr` varchar(200),
  `object_data` longtext,
  `prechange_data` longtext,
  `webhook_delivery` varchar(36),
  CONSTRAINT `pk_object_change` PRIMARY KEY (`id`),
  CONSTRAINT `uq_object_change_seq` UNIQUE (`seq`),
  CONSTRAINT `ck_object_change_object_data` CHECK (json_valid(`object_data`)),
  CONSTRAINT `ck_object_change_prechange_data` CHECK (json_valid(`prechange_data`)),
  KEY `ix_object_change_time` (`time`),
  KEY `ix_object_change_request_id` (`request_id`),
  KEY `ix_object_change_action` (`action`),
  KEY `ix_object_change_changed_object_type` (`changed_object_type`),
  KEY `ix_object_change_changed_object_id` (`changed_object_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `webhook` (
  `id` bigint NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `name` varchar(150) NOT NULL,
  `content_types` longtext NOT NULL,
  `type_create` tinyint(1) NOT NULL,
  `type_update` tinyint(1) NOT NULL,
  `type_delete` tinyint(1) NOT NULL,
  `payload_url` varchar(500) NOT NULL,
  `enabled` tinyint(1) NOT NULL,
  `http_method` varchar(6) NOT NULL,
  `http_content_type` varchar(100) NOT NULL,
  `additional_headers` varchar(2000) NOT NULL,
  `body_template` varchar(4000) NOT NULL,
  `secret` varchar(255) NOT NULL,
  `ssl_verification` tinyint(1) NOT NULL,
  CONSTRAINT `pk_webhook` PRIMARY KEY (`id`),
  CONSTRAINT `uq_webhook_name` UNIQUE (`name`),
  CONSTRAINT `ck_webhook_content_types` CHECK (json_valid(`content_types`)),
  KEY `ix_webhook_http_method` (`http_method`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `webhook_delivery` (
  `id` char(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `webhook` bigint NOT NULL,
  `change` varchar(36),
  `seq` bigint,
  `action` varchar(6),
  `changed_object_type` varchar(100),
  `changed_object_id` varchar(128),
  `status` varchar(9) NOT NULL,
  `attempts` bigint NOT NULL,
  `next_attempt_at` datetime(3),
  `last_attempt_at` datetime(3),
  `response_status` bigint,
  `error` varchar(1000) NOT NULL,
  `request_excerpt` varchar(1000) NOT NULL,
  `response_excerpt` varchar(1000) NOT NULL,
  `chain` bigint NOT NULL,
  CONSTRAINT `pk_webhook_delivery` PRIMARY KEY (`id`),
  CONSTRAINT `fk_webhook_delivery_webhook` FOREIGN KEY (`webhook`) REFERENCES `webhook` (`id`),
  KEY `ix_webhook_delivery_webhook` (`webhook`),
  KEY `ix_webhook_delivery_action` (`action`),
  KEY `ix_webhook_delivery_status` (`status`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
CREATE TABLE IF NOT EXISTS `webhook_cursor` (
  `id` char(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created` datetime(3) NOT NULL,
  `last_updated` datetime(3) NOT NULL,
  `version` bigint,
  `after_seq` bigint NOT NULL,
  CONSTRAINT `pk_webhook_cursor` PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `device` ADD CONSTRAINT `fk_device_primary_ip4` FOREIGN KEY (`primary_ip4`) REFERENCES `ip_address` (`id`)', 'DO 0') FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = 'device' AND CONSTRAINT_NAME = 'fk_device_primary_ip4' AND CONSTRAINT_TYPE = 'FOREIGN KEY')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `device` ADD CONSTRAINT `fk_device_primary_ip6` FOREIGN KEY (`primary_ip6`) REFERENCES `ip_address` (`id`)', 'DO 0') FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = 'device' AND CONSTRAINT_NAME = 'fk_device_primary_ip6' AND CONSTRAINT_TYPE = 'FOREIGN KEY')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `device` ADD CONSTRAINT `fk_device_primary_ip` FOREIGN KEY (`primary_ip`) REFERENCES `ip_address` (`id`)', 'DO 0') FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = 'device' AND CONSTRAINT_NAME = 'fk_device_primary_ip' AND CONSTRAINT_TYPE = 'FOREIGN KEY')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `virtual_machine` ADD CONSTRAINT `fk_virtual_machine_primary_ip4` FOREIGN KEY (`primary_ip4`) REFERENCES `ip_address` (`id`)', 'DO 0') FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = 'virtual_machine' AND CONSTRAINT_NAME = 'fk_virtual_machine_primary_ip4' AND CONSTRAINT_TYPE = 'FOREIGN KEY')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `virtual_machine` ADD CONSTRAINT `fk_virtual_machine_primary_ip6` FOREIGN KEY (`primary_ip6`) REFERENCES `ip_address` (`id`)', 'DO 0') FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = 'virtual_machine' AND CONSTRAINT_NAME = 'fk_virtual_machine_primary_ip6' AND CONSTRAINT_TYPE = 'FOREIGN KEY')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `virtual_machine` ADD CONSTRAINT `fk_virtual_machine_primary_ip` FOREIGN KEY (`primary_ip`) REFERENCES `ip_address` (`id`)', 'DO 0') FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = 'virtual_machine' AND CONSTRAINT_NAME = 'fk_virtual_machine_primary_ip' AND CONSTRAINT_TYPE = 'FOREIGN KEY')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `tag` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'tag' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `tag` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `custom_field` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'custom_field' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `custom_field` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `region` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'region' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `region` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `site_group` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'site_group' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `site_group` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `tenant_group` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'tenant_group' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `tenant_group` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `tenant` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'tenant' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `tenant` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `site` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'site' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `site` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `location` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'location' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `location` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `rack_role` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'rack_role' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `rack_role` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `rack` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'rack' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `rack` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `manufacturer` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'manufacturer' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `manufacturer` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `device_type` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'device_type' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `device_type` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `device_role` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'device_role' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `device_role` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `platform` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'platform' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `platform` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `cluster_type` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'cluster_type' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `cluster_type` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `cluster_group` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'cluster_group' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `cluster_group` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `cluster` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'cluster' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `cluster` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `device` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'device' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `device` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `interface` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'interface' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `interface` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `virtual_machine` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'virtual_machine' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `virtual_machine` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `vminterface` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'vminterface' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `vminterface` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `vlan` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'vlan' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `vlan` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `prefix` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'prefix' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `prefix` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `ip_address` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'ip_address' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `ip_address` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `service` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'service' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `service` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `webhook` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'webhook' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `webhook` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `webhook_delivery` ADD COLUMN `version` bigint', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'webhook_delivery' AND COLUMN_NAME = 'version')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
UPDATE `webhook_delivery` SET `version` = 1 WHERE `version` IS NULL
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `history` ADD COLUMN `context_patch` longtext', 'DO 0') FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'history' AND COLUMN_NAME = 'context_patch')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
CREATE TABLE IF NOT EXISTS `alloc_gen` (`resource` varchar(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY, `gen` bigint NOT NULL) ENGINE=InnoDB
;
INSERT IGNORE INTO `alloc_gen` (`resource`, `gen`) VALUES ('prefix', 0), ('ip_address', 0)
;
CREATE TABLE IF NOT EXISTS `alloc_hint` (`resource` varchar(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL, `parent` varchar(40) CHARACTER SET ascii COLLATE ascii_bin NOT NULL, `length` integer NOT NULL, `next_at` varchar(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL, `gen` bigint NOT NULL, PRIMARY KEY (`resource`, `parent`, `length`)) ENGINE=InnoDB
;
CREATE TABLE IF NOT EXISTS `change_counter` (`id` integer NOT NULL PRIMARY KEY, `seq` bigint NOT NULL) ENGINE=InnoDB
;
INSERT IGNORE INTO `change_counter` (`id`, `seq`) VALUES (1, 0)
;
CREATE TABLE IF NOT EXISTS `alloc_cover` (`block` varchar(40) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY, `family` smallint NOT NULL, `mark` varchar(33) CHARACTER SET ascii COLLATE ascii_bin NOT NULL) ENGINE=InnoDB
;
SET @netinv_ddl = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE `alloc_cover` ADD INDEX `ix_alloc_cover_mark` (`family`, `mark`)', 'DO 0') FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'alloc_cover' AND INDEX_NAME = 'ix_alloc_cover_mark')
;
PREPARE netinv_ddl FROM @netinv_ddl
;
EXECUTE netinv_ddl
;
DEALLOCATE PREPARE netinv_ddl
;
CREATE TABLE IF NOT EXISTS `ref_count` (`counted` varchar(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL, `ref` bigint NOT NULL, `n` bigint NOT NULL, PRIMARY KEY (`counted`, `ref`)) ENGINE=InnoDB
;
CREATE TABLE IF NOT EXISTS `ref_count_delta` (`id` bigint NOT NULL AUTO_INCREMENT PRIMARY KEY, `counted` varchar(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL, `ref` bigint NOT NULL, `n` bigint NOT NULL, INDEX ix_ref_count_delta_ref (`counted`, `ref`)) ENGINE=InnoDB
;
DROP TRIGGER IF EXISTS netinv_count_cluster_insert
;
CREATE TRIGGER netinv_count_cluster_insert AFTER INSERT ON `cluster` FOR EACH ROW BEGIN IF NEW.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.group', NEW.`group`, 1); END IF; IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.site', NEW.`site`, 1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.tenant', NEW.`tenant`, 1); END IF; IF NEW.`type` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.type', NEW.`type`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_cluster_delete
;
CREATE TRIGGER netinv_count_cluster_delete AFTER DELETE ON `cluster` FOR EACH ROW BEGIN IF OLD.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.group', OLD.`group`, -1); END IF; IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.site', OLD.`site`, -1); END IF; IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.tenant', OLD.`tenant`, -1); END IF; IF OLD.`type` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.type', OLD.`type`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_cluster_update
;
CREATE TRIGGER netinv_count_cluster_update AFTER UPDATE ON `cluster` FOR EACH ROW BEGIN IF NOT (OLD.`group` <=> NEW.`group`) THEN IF OLD.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.group', OLD.`group`, -1); END IF; IF NEW.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.group', NEW.`group`, 1); END IF; END IF; IF NOT (OLD.`site` <=> NEW.`site`) THEN IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.site', OLD.`site`, -1); END IF; IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.site', NEW.`site`, 1); END IF; END IF; IF NOT (OLD.`tenant` <=> NEW.`tenant`) THEN IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.tenant', OLD.`tenant`, -1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.tenant', NEW.`tenant`, 1); END IF; END IF; IF NOT (OLD.`type` <=> NEW.`type`) THEN IF OLD.`type` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.type', OLD.`type`, -1); END IF; IF NEW.`type` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('cluster.type', NEW.`type`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_device_insert
;
CREATE TRIGGER netinv_count_device_insert AFTER INSERT ON `device` FOR EACH ROW BEGIN IF NEW.`cluster` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.cluster', NEW.`cluster`, 1); END IF; IF NEW.`device_type` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.device_type', NEW.`device_type`, 1); END IF; IF NEW.`location` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.location', NEW.`location`, 1); END IF; IF NEW.`platform` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.platform', NEW.`platform`, 1); END IF; IF NEW.`rack` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.rack', NEW.`rack`, 1); END IF; IF NEW.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.role', NEW.`role`, 1); END IF; IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.site', NEW.`site`, 1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.tenant', NEW.`tenant`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_device_delete
;
CREATE TRIGGER netinv_count_device_delete AFTER DELETE ON `device` FOR EACH ROW BEGIN IF OLD.`cluster` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.cluster', OLD.`cluster`, -1); END IF; IF OLD.`device_type` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.device_type', OLD.`device_type`, -1); END IF; IF OLD.`location` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.location', OLD.`location`, -1); END IF; IF OLD.`platform` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.platform', OLD.`platform`, -1); END IF; IF OLD.`rack` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.rack', OLD.`rack`, -1); END IF; IF OLD.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.role', OLD.`role`, -1); END IF; IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.site', OLD.`site`, -1); END IF; IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.tenant', OLD.`tenant`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_device_update
;
CREATE TRIGGER netinv_count_device_update AFTER UPDATE ON `device` FOR EACH ROW BEGIN IF NOT (OLD.`cluster` <=> NEW.`cluster`) THEN IF OLD.`cluster` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.cluster', OLD.`cluster`, -1); END IF; IF NEW.`cluster` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.cluster', NEW.`cluster`, 1); END IF; END IF; IF NOT (OLD.`device_type` <=> NEW.`device_type`) THEN IF OLD.`device_type` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.device_type', OLD.`device_type`, -1); END IF; IF NEW.`device_type` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.device_type', NEW.`device_type`, 1); END IF; END IF; IF NOT (OLD.`location` <=> NEW.`location`) THEN IF OLD.`location` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.location', OLD.`location`, -1); END IF; IF NEW.`location` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.location', NEW.`location`, 1); END IF; END IF; IF NOT (OLD.`platform` <=> NEW.`platform`) THEN IF OLD.`platform` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.platform', OLD.`platform`, -1); END IF; IF NEW.`platform` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.platform', NEW.`platform`, 1); END IF; END IF; IF NOT (OLD.`rack` <=> NEW.`rack`) THEN IF OLD.`rack` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.rack', OLD.`rack`, -1); END IF; IF NEW.`rack` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.rack', NEW.`rack`, 1); END IF; END IF; IF NOT (OLD.`role` <=> NEW.`role`) THEN IF OLD.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.role', OLD.`role`, -1); END IF; IF NEW.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.role', NEW.`role`, 1); END IF; END IF; IF NOT (OLD.`site` <=> NEW.`site`) THEN IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.site', OLD.`site`, -1); END IF; IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.site', NEW.`site`, 1); END IF; END IF; IF NOT (OLD.`tenant` <=> NEW.`tenant`) THEN IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.tenant', OLD.`tenant`, -1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device.tenant', NEW.`tenant`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_device_type_insert
;
CREATE TRIGGER netinv_count_device_type_insert AFTER INSERT ON `device_type` FOR EACH ROW BEGIN IF NEW.`manufacturer` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device_type.manufacturer', NEW.`manufacturer`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_device_type_delete
;
CREATE TRIGGER netinv_count_device_type_delete AFTER DELETE ON `device_type` FOR EACH ROW BEGIN IF OLD.`manufacturer` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device_type.manufacturer', OLD.`manufacturer`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_device_type_update
;
CREATE TRIGGER netinv_count_device_type_update AFTER UPDATE ON `device_type` FOR EACH ROW BEGIN IF NOT (OLD.`manufacturer` <=> NEW.`manufacturer`) THEN IF OLD.`manufacturer` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device_type.manufacturer', OLD.`manufacturer`, -1); END IF; IF NEW.`manufacturer` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('device_type.manufacturer', NEW.`manufacturer`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_interface_insert
;
CREATE TRIGGER netinv_count_interface_insert AFTER INSERT ON `interface` FOR EACH ROW BEGIN IF NEW.`device` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('interface.device', NEW.`device`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_interface_delete
;
CREATE TRIGGER netinv_count_interface_delete AFTER DELETE ON `interface` FOR EACH ROW BEGIN IF OLD.`device` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('interface.device', OLD.`device`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_interface_update
;
CREATE TRIGGER netinv_count_interface_update AFTER UPDATE ON `interface` FOR EACH ROW BEGIN IF NOT (OLD.`device` <=> NEW.`device`) THEN IF OLD.`device` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('interface.device', OLD.`device`, -1); END IF; IF NEW.`device` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('interface.device', NEW.`device`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_ip_address_insert
;
CREATE TRIGGER netinv_count_ip_address_insert AFTER INSERT ON `ip_address` FOR EACH ROW BEGIN IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('ip_address.tenant', NEW.`tenant`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_ip_address_delete
;
CREATE TRIGGER netinv_count_ip_address_delete AFTER DELETE ON `ip_address` FOR EACH ROW BEGIN IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('ip_address.tenant', OLD.`tenant`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_ip_address_update
;
CREATE TRIGGER netinv_count_ip_address_update AFTER UPDATE ON `ip_address` FOR EACH ROW BEGIN IF NOT (OLD.`tenant` <=> NEW.`tenant`) THEN IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('ip_address.tenant', OLD.`tenant`, -1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('ip_address.tenant', NEW.`tenant`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_location_insert
;
CREATE TRIGGER netinv_count_location_insert AFTER INSERT ON `location` FOR EACH ROW BEGIN IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('location.site', NEW.`site`, 1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('location.tenant', NEW.`tenant`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_location_delete
;
CREATE TRIGGER netinv_count_location_delete AFTER DELETE ON `location` FOR EACH ROW BEGIN IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('location.site', OLD.`site`, -1); END IF; IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('location.tenant', OLD.`tenant`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_location_update
;
CREATE TRIGGER netinv_count_location_update AFTER UPDATE ON `location` FOR EACH ROW BEGIN IF NOT (OLD.`site` <=> NEW.`site`) THEN IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('location.site', OLD.`site`, -1); END IF; IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('location.site', NEW.`site`, 1); END IF; END IF; IF NOT (OLD.`tenant` <=> NEW.`tenant`) THEN IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('location.tenant', OLD.`tenant`, -1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('location.tenant', NEW.`tenant`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_platform_insert
;
CREATE TRIGGER netinv_count_platform_insert AFTER INSERT ON `platform` FOR EACH ROW BEGIN IF NEW.`manufacturer` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('platform.manufacturer', NEW.`manufacturer`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_platform_delete
;
CREATE TRIGGER netinv_count_platform_delete AFTER DELETE ON `platform` FOR EACH ROW BEGIN IF OLD.`manufacturer` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('platform.manufacturer', OLD.`manufacturer`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_platform_update
;
CREATE TRIGGER netinv_count_platform_update AFTER UPDATE ON `platform` FOR EACH ROW BEGIN IF NOT (OLD.`manufacturer` <=> NEW.`manufacturer`) THEN IF OLD.`manufacturer` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('platform.manufacturer', OLD.`manufacturer`, -1); END IF; IF NEW.`manufacturer` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('platform.manufacturer', NEW.`manufacturer`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_prefix_insert
;
CREATE TRIGGER netinv_count_prefix_insert AFTER INSERT ON `prefix` FOR EACH ROW BEGIN IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('prefix.site', NEW.`site`, 1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('prefix.tenant', NEW.`tenant`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_prefix_delete
;
CREATE TRIGGER netinv_count_prefix_delete AFTER DELETE ON `prefix` FOR EACH ROW BEGIN IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('prefix.site', OLD.`site`, -1); END IF; IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('prefix.tenant', OLD.`tenant`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_prefix_update
;
CREATE TRIGGER netinv_count_prefix_update AFTER UPDATE ON `prefix` FOR EACH ROW BEGIN IF NOT (OLD.`site` <=> NEW.`site`) THEN IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('prefix.site', OLD.`site`, -1); END IF; IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('prefix.site', NEW.`site`, 1); END IF; END IF; IF NOT (OLD.`tenant` <=> NEW.`tenant`) THEN IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('prefix.tenant', OLD.`tenant`, -1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('prefix.tenant', NEW.`tenant`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_rack_insert
;
CREATE TRIGGER netinv_count_rack_insert AFTER INSERT ON `rack` FOR EACH ROW BEGIN IF NEW.`location` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.location', NEW.`location`, 1); END IF; IF NEW.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.role', NEW.`role`, 1); END IF; IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.site', NEW.`site`, 1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.tenant', NEW.`tenant`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_rack_delete
;
CREATE TRIGGER netinv_count_rack_delete AFTER DELETE ON `rack` FOR EACH ROW BEGIN IF OLD.`location` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.location', OLD.`location`, -1); END IF; IF OLD.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.role', OLD.`role`, -1); END IF; IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.site', OLD.`site`, -1); END IF; IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.tenant', OLD.`tenant`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_rack_update
;
CREATE TRIGGER netinv_count_rack_update AFTER UPDATE ON `rack` FOR EACH ROW BEGIN IF NOT (OLD.`location` <=> NEW.`location`) THEN IF OLD.`location` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.location', OLD.`location`, -1); END IF; IF NEW.`location` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.location', NEW.`location`, 1); END IF; END IF; IF NOT (OLD.`role` <=> NEW.`role`) THEN IF OLD.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.role', OLD.`role`, -1); END IF; IF NEW.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.role', NEW.`role`, 1); END IF; END IF; IF NOT (OLD.`site` <=> NEW.`site`) THEN IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.site', OLD.`site`, -1); END IF; IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.site', NEW.`site`, 1); END IF; END IF; IF NOT (OLD.`tenant` <=> NEW.`tenant`) THEN IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.tenant', OLD.`tenant`, -1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('rack.tenant', NEW.`tenant`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_site_insert
;
CREATE TRIGGER netinv_count_site_insert AFTER INSERT ON `site` FOR EACH ROW BEGIN IF NEW.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.group', NEW.`group`, 1); END IF; IF NEW.`region` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.region', NEW.`region`, 1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.tenant', NEW.`tenant`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_site_delete
;
CREATE TRIGGER netinv_count_site_delete AFTER DELETE ON `site` FOR EACH ROW BEGIN IF OLD.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.group', OLD.`group`, -1); END IF; IF OLD.`region` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.region', OLD.`region`, -1); END IF; IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.tenant', OLD.`tenant`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_site_update
;
CREATE TRIGGER netinv_count_site_update AFTER UPDATE ON `site` FOR EACH ROW BEGIN IF NOT (OLD.`group` <=> NEW.`group`) THEN IF OLD.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.group', OLD.`group`, -1); END IF; IF NEW.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.group', NEW.`group`, 1); END IF; END IF; IF NOT (OLD.`region` <=> NEW.`region`) THEN IF OLD.`region` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.region', OLD.`region`, -1); END IF; IF NEW.`region` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.region', NEW.`region`, 1); END IF; END IF; IF NOT (OLD.`tenant` <=> NEW.`tenant`) THEN IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.tenant', OLD.`tenant`, -1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('site.tenant', NEW.`tenant`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_tenant_insert
;
CREATE TRIGGER netinv_count_tenant_insert AFTER INSERT ON `tenant` FOR EACH ROW BEGIN IF NEW.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('tenant.group', NEW.`group`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_tenant_delete
;
CREATE TRIGGER netinv_count_tenant_delete AFTER DELETE ON `tenant` FOR EACH ROW BEGIN IF OLD.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('tenant.group', OLD.`group`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_tenant_update
;
CREATE TRIGGER netinv_count_tenant_update AFTER UPDATE ON `tenant` FOR EACH ROW BEGIN IF NOT (OLD.`group` <=> NEW.`group`) THEN IF OLD.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('tenant.group', OLD.`group`, -1); END IF; IF NEW.`group` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('tenant.group', NEW.`group`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_virtual_machine_insert
;
CREATE TRIGGER netinv_count_virtual_machine_insert AFTER INSERT ON `virtual_machine` FOR EACH ROW BEGIN IF NEW.`cluster` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.cluster', NEW.`cluster`, 1); END IF; IF NEW.`platform` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.platform', NEW.`platform`, 1); END IF; IF NEW.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.role', NEW.`role`, 1); END IF; IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.site', NEW.`site`, 1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.tenant', NEW.`tenant`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_virtual_machine_delete
;
CREATE TRIGGER netinv_count_virtual_machine_delete AFTER DELETE ON `virtual_machine` FOR EACH ROW BEGIN IF OLD.`cluster` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.cluster', OLD.`cluster`, -1); END IF; IF OLD.`platform` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.platform', OLD.`platform`, -1); END IF; IF OLD.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.role', OLD.`role`, -1); END IF; IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.site', OLD.`site`, -1); END IF; IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.tenant', OLD.`tenant`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_virtual_machine_update
;
CREATE TRIGGER netinv_count_virtual_machine_update AFTER UPDATE ON `virtual_machine` FOR EACH ROW BEGIN IF NOT (OLD.`cluster` <=> NEW.`cluster`) THEN IF OLD.`cluster` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.cluster', OLD.`cluster`, -1); END IF; IF NEW.`cluster` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.cluster', NEW.`cluster`, 1); END IF; END IF; IF NOT (OLD.`platform` <=> NEW.`platform`) THEN IF OLD.`platform` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.platform', OLD.`platform`, -1); END IF; IF NEW.`platform` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.platform', NEW.`platform`, 1); END IF; END IF; IF NOT (OLD.`role` <=> NEW.`role`) THEN IF OLD.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.role', OLD.`role`, -1); END IF; IF NEW.`role` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.role', NEW.`role`, 1); END IF; END IF; IF NOT (OLD.`site` <=> NEW.`site`) THEN IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.site', OLD.`site`, -1); END IF; IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.site', NEW.`site`, 1); END IF; END IF; IF NOT (OLD.`tenant` <=> NEW.`tenant`) THEN IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.tenant', OLD.`tenant`, -1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('virtual_machine.tenant', NEW.`tenant`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_vlan_insert
;
CREATE TRIGGER netinv_count_vlan_insert AFTER INSERT ON `vlan` FOR EACH ROW BEGIN IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vlan.site', NEW.`site`, 1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vlan.tenant', NEW.`tenant`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_vlan_delete
;
CREATE TRIGGER netinv_count_vlan_delete AFTER DELETE ON `vlan` FOR EACH ROW BEGIN IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vlan.site', OLD.`site`, -1); END IF; IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vlan.tenant', OLD.`tenant`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_vlan_update
;
CREATE TRIGGER netinv_count_vlan_update AFTER UPDATE ON `vlan` FOR EACH ROW BEGIN IF NOT (OLD.`site` <=> NEW.`site`) THEN IF OLD.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vlan.site', OLD.`site`, -1); END IF; IF NEW.`site` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vlan.site', NEW.`site`, 1); END IF; END IF; IF NOT (OLD.`tenant` <=> NEW.`tenant`) THEN IF OLD.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vlan.tenant', OLD.`tenant`, -1); END IF; IF NEW.`tenant` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vlan.tenant', NEW.`tenant`, 1); END IF; END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_vminterface_insert
;
CREATE TRIGGER netinv_count_vminterface_insert AFTER INSERT ON `vminterface` FOR EACH ROW BEGIN IF NEW.`virtual_machine` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vminterface.virtual_machine', NEW.`virtual_machine`, 1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_vminterface_delete
;
CREATE TRIGGER netinv_count_vminterface_delete AFTER DELETE ON `vminterface` FOR EACH ROW BEGIN IF OLD.`virtual_machine` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vminterface.virtual_machine', OLD.`virtual_machine`, -1); END IF; END
;
DROP TRIGGER IF EXISTS netinv_count_vminterface_update
;
CREATE TRIGGER netinv_count_vminterface_update AFTER UPDATE ON `vminterface` FOR EACH ROW BEGIN IF NOT (OLD.`virtual_machine` <=> NEW.`virtual_machine`) THEN IF OLD.`virtual_machine` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vminterface.virtual_machine', OLD.`virtual_machine`, -1); END IF; IF NEW.`virtual_machine` IS NOT NULL THEN INSERT INTO `ref_count_delta` (`counted`, `ref`, `n`) VALUES ('vminterface.virtual_machine', NEW.`virtual_machine`, 1); END IF; END IF; END
;
DELETE FROM `ref_count_delta`
;
DELETE FROM `ref_count`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'cluster.group', `group`, COUNT(*) FROM `cluster` WHERE `group` IS NOT NULL GROUP BY `group`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'cluster.site', `site`, COUNT(*) FROM `cluster` WHERE `site` IS NOT NULL GROUP BY `site`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'cluster.tenant', `tenant`, COUNT(*) FROM `cluster` WHERE `tenant` IS NOT NULL GROUP BY `tenant`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'cluster.type', `type`, COUNT(*) FROM `cluster` WHERE `type` IS NOT NULL GROUP BY `type`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'device.cluster', `cluster`, COUNT(*) FROM `device` WHERE `cluster` IS NOT NULL GROUP BY `cluster`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'device.device_type', `device_type`, COUNT(*) FROM `device` WHERE `device_type` IS NOT NULL GROUP BY `device_type`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'device.location', `location`, COUNT(*) FROM `device` WHERE `location` IS NOT NULL GROUP BY `location`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'device.platform', `platform`, COUNT(*) FROM `device` WHERE `platform` IS NOT NULL GROUP BY `platform`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'device.rack', `rack`, COUNT(*) FROM `device` WHERE `rack` IS NOT NULL GROUP BY `rack`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'device.role', `role`, COUNT(*) FROM `device` WHERE `role` IS NOT NULL GROUP BY `role`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'device.site', `site`, COUNT(*) FROM `device` WHERE `site` IS NOT NULL GROUP BY `site`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'device.tenant', `tenant`, COUNT(*) FROM `device` WHERE `tenant` IS NOT NULL GROUP BY `tenant`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'device_type.manufacturer', `manufacturer`, COUNT(*) FROM `device_type` WHERE `manufacturer` IS NOT NULL GROUP BY `manufacturer`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'interface.device', `device`, COUNT(*) FROM `interface` WHERE `device` IS NOT NULL GROUP BY `device`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'ip_address.tenant', `tenant`, COUNT(*) FROM `ip_address` WHERE `tenant` IS NOT NULL GROUP BY `tenant`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'location.site', `site`, COUNT(*) FROM `location` WHERE `site` IS NOT NULL GROUP BY `site`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'location.tenant', `tenant`, COUNT(*) FROM `location` WHERE `tenant` IS NOT NULL GROUP BY `tenant`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'platform.manufacturer', `manufacturer`, COUNT(*) FROM `platform` WHERE `manufacturer` IS NOT NULL GROUP BY `manufacturer`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'prefix.site', `site`, COUNT(*) FROM `prefix` WHERE `site` IS NOT NULL GROUP BY `site`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'prefix.tenant', `tenant`, COUNT(*) FROM `prefix` WHERE `tenant` IS NOT NULL GROUP BY `tenant`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'rack.location', `location`, COUNT(*) FROM `rack` WHERE `location` IS NOT NULL GROUP BY `location`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'rack.role', `role`, COUNT(*) FROM `rack` WHERE `role` IS NOT NULL GROUP BY `role`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'rack.site', `site`, COUNT(*) FROM `rack` WHERE `site` IS NOT NULL GROUP BY `site`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'rack.tenant', `tenant`, COUNT(*) FROM `rack` WHERE `tenant` IS NOT NULL GROUP BY `tenant`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'site.group', `group`, COUNT(*) FROM `site` WHERE `group` IS NOT NULL GROUP BY `group`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'site.region', `region`, COUNT(*) FROM `site` WHERE `region` IS NOT NULL GROUP BY `region`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'site.tenant', `tenant`, COUNT(*) FROM `site` WHERE `tenant` IS NOT NULL GROUP BY `tenant`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'tenant.group', `group`, COUNT(*) FROM `tenant` WHERE `group` IS NOT NULL GROUP BY `group`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'virtual_machine.cluster', `cluster`, COUNT(*) FROM `virtual_machine` WHERE `cluster` IS NOT NULL GROUP BY `cluster`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'virtual_machine.platform', `platform`, COUNT(*) FROM `virtual_machine` WHERE `platform` IS NOT NULL GROUP BY `platform`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'virtual_machine.role', `role`, COUNT(*) FROM `virtual_machine` WHERE `role` IS NOT NULL GROUP BY `role`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'virtual_machine.site', `site`, COUNT(*) FROM `virtual_machine` WHERE `site` IS NOT NULL GROUP BY `site`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'virtual_machine.tenant', `tenant`, COUNT(*) FROM `virtual_machine` WHERE `tenant` IS NOT NULL GROUP BY `tenant`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'vlan.site', `site`, COUNT(*) FROM `vlan` WHERE `site` IS NOT NULL GROUP BY `site`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'vlan.tenant', `tenant`, COUNT(*) FROM `vlan` WHERE `tenant` IS NOT NULL GROUP BY `tenant`
;
INSERT INTO `ref_count` (`counted`, `ref`, `n`) SELECT 'vminterface.virtual_machine', `virtual_machine`, COUNT(*) FROM `vminterface` WHERE `virtual_machine` IS NOT NULL GROUP BY `virtual_machine`
;
CREATE TABLE IF NOT EXISTS `id_counter` (`name` varchar(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY, `last` bigint NOT NULL) ENGINE=InnoDB
;
